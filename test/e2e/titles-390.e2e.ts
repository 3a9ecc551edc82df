import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, test } from './fixtures';
import { partnerMember } from './partner-member';

/**
 * The words of a screen's headings that a line break cuts although they would fit whole on a line:
 * each word's pieces are measured where the browser laid them out.
 */
async function wordsCut(page: Page): Promise<string[]> {
  // Runs in the page; the root tsconfig has no DOM types, so it is passed as text.
  return page.evaluate(`(() => {
    const cut = [];
    for (const heading of document.querySelectorAll('h1, h2, h3')) {
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.textContent.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size < 2) continue;
          const whole = document.createElement('span');
          whole.style.cssText = 'white-space: nowrap; position: absolute; font: ' + getComputedStyle(node.parentElement).font;
          whole.textContent = word[0];
          document.body.append(whole);
          const fits = whole.getBoundingClientRect().width <= heading.clientWidth;
          whole.remove();
          if (fits) cut.push(word[0]);
        }
      }
    }
    return cut;
  })()`);
}

test('at 390 px, headings wrap between words, never inside one that fits on a line', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const { id } = await partnerMember(page.request, playwright, baseURL!, 'titles');
  for (const path of [
    '/ui/',
    '/ui/developer',
    '/ui/developer/claim',
    '/ui/developer/scopes',
    '/ui/developer/reference',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await wordsCut(page), path).toEqual([]);
  }
  const admin = await (await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } })).newPage();
  await admin.goto('/ui/admin/login');
  await admin.getByLabel('Username').fill('admin');
  await admin.getByLabel('Password').fill(ADMIN_PASSWORD);
  await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
  for (const path of [
    '/ui/admin/credentials',
    '/ui/admin/scopes',
    '/ui/admin/addons',
    '/ui/admin/audit',
    `/ui/admin/audit/members/${id}`,
    '/ui/admin/webhooks',
    '/ui/admin/contract',
  ]) {
    await admin.goto(path);
    await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
    await admin.waitForLoadState('networkidle');
    expect(await wordsCut(admin), path).toEqual([]);
  }
  await admin.context().close();
});
