import { expect, screen, test } from './fixtures';
import { partnerMember } from './partner-member';

test('the partner reference calls the open API from the page with a claimed key, and shows a refusal as sent', async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { username, apiid, apikey } = await partnerMember(page.request, playwright, baseURL!, 'ref');

  // The reference is a chunk of its own, fetched when the screen opens.
  const chunk = page.waitForRequest(/\/ui\/assets\/partner-reference-[^/]+\.js$/);
  await page.goto('/ui/developer/reference');
  await chunk;
  await expect(page.getByRole('heading', { level: 1, name: 'Partner API reference' })).toBeVisible();
  const addons = page.getByRole('article', { name: 'GET /api/v1/open/addons' });
  await expect(addons.getByRole('row', { name: /^X-API-Key \(required\) header/ })).toBeVisible();
  await expect(addons.locator('.schema-tree').first()).toContainText('list array of CatalogueEntry');
  const curl = addons.getByLabel('curl call for GET /open/addons', { exact: true });
  await expect(curl).toContainText(`X-API-ID: ${apiid}`);
  await expect(curl).toContainText('${PLATFORM_API_KEY:?set PLATFORM_API_KEY to your API key}');
  await addons.getByRole('button', { name: 'Copy the curl call for GET /open/addons' }).click();
  await expect(addons.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await curl.textContent());

  // Try it with the claimed key: the open API answers the page (same origin, within the console's CSP).
  await expect(page.getByLabel('API id (X-API-ID)')).toHaveValue(apiid);
  await page.getByLabel('API key (X-API-Key)').fill(apikey);
  await addons.getByRole('button', { name: 'Send GET /open/addons' }).click();
  const tried = addons.getByRole('region', { name: 'Try GET /open/addons' });
  await expect(tried.getByText('Answered 200 OK')).toBeVisible();
  await expect(tried.getByRole('row', { name: /^ratelimit-policy / })).toBeVisible();
  await expect(tried.getByLabel('Body of the answer to GET /open/addons', { exact: true })).toContainText('"code": 0');
  await screen(page, 'developer-reference-try-it');

  // A scope not approved: the 403 as the service words it.
  const groups = page.getByRole('article', { name: 'GET /api/v1/open/member-groups' });
  await groups.getByRole('button', { name: 'Send GET /open/member-groups' }).click();
  await expect(groups.getByText('Answered 403 Forbidden')).toBeVisible();
  await expect(groups.getByLabel('Body of the answer to GET /open/member-groups', { exact: true })).toContainText(
    'member-groups.read',
  );

  // A wrong key: 401 and its envelope.
  await page.getByLabel('API key (X-API-Key)').fill('sk_not-the-key');
  await addons.getByRole('button', { name: 'Send GET /open/addons' }).click();
  await expect(tried.getByText('Answered 401 Unauthorized')).toBeVisible();
  await expect(tried.getByLabel('Body of the answer to GET /open/addons', { exact: true })).toContainText(
    '"error": "api_credentials_invalid"',
  );
  await screen(page, 'developer-reference-401');
  await page.setViewportSize({ width: 390, height: 844 });
  // The answer's long header values and body wrap: nothing scrolls sideways.
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await screen(page, 'developer-reference-401-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The key was kept in the page's memory only, and is gone once the member leaves the screen.
  await page.getByLabel('API key (X-API-Key)').fill(apikey);
  const kept = (await page.evaluate(
    'JSON.stringify([location.href, document.cookie, { ...localStorage }, { ...sessionStorage }])',
  )) as string;
  expect(kept).not.toContain(apikey);
  const nav = page.getByRole('navigation', { name: 'Developer center' });
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Hello, ${username}` })).toBeVisible();
  await nav.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByLabel('API key (X-API-Key)')).toHaveValue('');
});
