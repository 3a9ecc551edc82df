import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screen } from './fixtures';

/** The widths a console story looks at a screen in: a desktop's and a phone's. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Each new screen at a desktop and a phone width, looked at and checked by axe. */
export async function atBothWidths(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screen(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The link of the last mail to this address with a token, as the loopback sink received it. */
export async function mailedLink(to: string): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR!;
  let link: string | undefined;
  await expect
    .poll(() => {
      const mails = readdirSync(dir)
        .sort()
        .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as { to: string; text: string })
        .filter((mail) => mail.to === to);
      link = mails.at(-1)?.text.match(/https?:\/\/\S+token=\S+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/**
 * A review queue at scale, as both queues behave (issue 46): compact rows, at most 56 px each at
 * 1280 px with 50 on the page, and the keys, j moving to the first row, x selecting it, x again
 * letting it go.
 */
export async function compactRowsAndKeys(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  const heights = await page
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
  expect(heights).toHaveLength(50);
  expect(Math.max(...heights)).toBeLessThanOrEqual(56);

  await page.locator('h1').click();
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  // The first row whatever its name: the scope queue is in member-id order, which concurrent
  // registrations do not keep in the names' order.
  const first = page.locator('tbody tr').first().getByRole('checkbox');
  await expect(first).toBeChecked();
  await page.keyboard.press('x');
  await expect(first).not.toBeChecked();
}
