import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';

export { expect };
export { ADMIN_PASSWORD } from './compiled-service';

/** Every test talks to the service global setup started, whatever port it got. */
export const test = base.extend({
  baseURL: async ({ browserName: _ }, use) => use(process.env.E2E_BASE_URL),
});

/**
 * Each screen the story reaches: kept as a screenshot under test-results/screens/ (looked at by
 * people, attached to CI), and checked by axe-core for serious or critical violations.
 */
export async function screen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    severe.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${name}`,
  ).toEqual([]);
}

/** The administration CLI on the service's data directory, as an operator would run it. */
export function platformCli(args: string[], input?: string): string {
  return execFileSync(process.execPath, ['dist/cli.js', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    input,
    encoding: 'utf8',
  });
}

/** Signs in on an area's sign-in screen. */
export async function signIn(
  page: Page,
  area: 'developer' | 'admin',
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`/ui/${area}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  // Exactly: the administrator's sign-in also offers "Sign in with a passkey".
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
