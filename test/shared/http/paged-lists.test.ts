import request from 'supertest';
import { defineMemberGroup } from '../../../src/access/groups';
import { AdminBrowser, cliContext, superAdmin } from '../../support/addons';
import { activePartner, approvedMember } from '../../support/credentials';
import { eventually } from '../../support/eventually';
import { startPlatform, TestPlatform } from '../../support/platform';
import { registerWebhook } from '../../support/webhooks';

/**
 * Every list is paged the same way: `limit` and `after` in, `next` out, and a walk page by page
 * meets each item once, in the order of the whole list. A client that names no limit reads the
 * whole list (next: null), as it did before the lists were paged.
 */
let t: TestPlatform;
let admin: AdminBrowser;

beforeAll(async () => {
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true });
  admin = await superAdmin(t);
  for (const name of ['Paging one', 'Paging two', 'Paging three']) {
    await admin.client
      .post('/api/v1/role-groups')
      .set('X-CSRF-Token', admin.token)
      .send({ name, permissions: ['credential.review'] })
      .expect(200);
  }
  for (const username of ['helen', 'hiro']) {
    await admin.client
      .post('/api/v1/administrators')
      .set('X-CSRF-Token', admin.token)
      .send({ username, role_group_id: 1 })
      .expect(200);
  }
  for (const port of [9001, 9002, 9003]) await registerWebhook(admin, `http://127.0.0.1:${port}/hook`);
  for (const name of ['Partners', 'Resellers']) {
    await defineMemberGroup(t.platform.stores.events, { name, description: name }, cliContext());
  }
});
afterAll(() => t.close());

type Get = (path: string) => request.Test;
const asAdmin: Get = (path) => admin.client.get(path);

/** Every page of `path`, `limit` items at a time, following `next`. */
async function walk(get: Get, path: string, limit: number): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  let after: string | null = null;
  do {
    const query: string = `limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
    const res = await get(`/api/v1${path}${path.includes('?') ? '&' : '?'}${query}`).expect(200);
    expect(res.body.data.list.length).toBeLessThanOrEqual(limit);
    pages.push(res.body.data.list);
    after = res.body.data.next;
  } while (after !== null && pages.length < 100);
  return pages;
}

const lists: [string, number][] = [
  ['/role-groups', 4],
  ['/administrators', 3],
  ['/webhooks', 3],
  ['/permissions', 6],
  ['/roles', 4],
  ['/mails?status=pending', 0],
];

describe.each(lists)('GET %s', (path, atLeast) => {
  it('answers the whole list without a limit, and the same items page by page', async () => {
    const whole = (await asAdmin(`/api/v1${path}`).expect(200)).body.data;
    expect(whole.next).toBeNull();
    expect(whole.list.length).toBeGreaterThanOrEqual(atLeast);
    const pages = await walk(asAdmin, path, 2);
    expect(pages.flat()).toEqual(whole.list);
    if (whole.list.length > 2) expect(pages.length).toBe(Math.ceil(whole.list.length / 2));
  });
});

it("pages a webhook's deliveries, newest first", async () => {
  // Each approval is delivered to every webhook (which refuses it: nothing listens there).
  for (let i = 0; i < 3; i++) await approvedMember(t);
  const [hook] = (await asAdmin('/api/v1/webhooks').expect(200)).body.data.list;
  const whole = await eventually(async () => {
    const data = (await asAdmin(`/api/v1/webhooks/${hook.id}/deliveries`).expect(200)).body.data;
    return data.list.length >= 3 && data;
  });
  expect(whole.next).toBeNull();
  // Each delivery's position, newest first; the walk's items are the whole list's, by id.
  const ids = (list: { id: string }[]) => list.map(({ id }) => id);
  const walked = (await walk(asAdmin, `/webhooks/${hook.id}/deliveries`, 1)).flat() as { id: string }[];
  expect(new Set(ids(walked)).size).toBe(walked.length);
  expect(ids(walked).slice(0, 3)).toEqual(ids(whole.list).slice(0, 3));
});

it('refuses a limit out of bounds and a cursor that is none, as /credentials does', async () => {
  for (const query of ['limit=0', 'limit=201', 'limit=two', 'after=']) {
    const res = await asAdmin(`/api/v1/administrators?${query}`).expect(422);
    expect(res.body.data.error).toBe('validation_failed');
  }
  const res = await asAdmin('/api/v1/administrators?after=not-a-cursor').expect(422);
  expect(res.body.data.error).toBe('invalid_cursor');
});

describe('the open API', () => {
  it('answers GET /open/member-groups whole (the partner lane) and page by page (the router)', async () => {
    const partner = await activePartner(t, ['member-groups.read']);
    const asPartner: Get = (path) =>
      t.client().get(path).set('X-API-ID', partner.apiid).set('X-API-Key', partner.apikey);
    const whole = await eventually(async () => {
      const data = (await asPartner('/api/v1/open/member-groups').expect(200)).body.data;
      return data.list.length >= 3 && data;
    });
    expect(whole.next).toBeNull();
    const pages = await walk(asPartner, '/open/member-groups', 1);
    expect(pages.flat()).toEqual(whole.list);
    expect(pages.length).toBe(whole.list.length);
  });
});
