import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screen } from './fixtures';

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
