import request from 'supertest';
import { expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';
import { applicationCounts, scopeRequestCounts } from '../../support/review-counts';

/** The review lists come a page at a time, in a stable order, with the cursor of the next page. */

const API = '/api/v1';
let t: TestPlatform;
let admin: request.Agent;
let adminToken: string;
const ids: number[] = [];

beforeAll(async () => {
  t = await startPlatform();
  admin = t.client();
  adminToken = await logInAdmin(admin);
  for (let i = 0; i < 3; i++) {
    const client = t.client();
    const member = await registerMember(client);
    await client.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', adminToken).send({}).expect(200);
    await client.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await client
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes: ['member-groups.read', 'addons.read'], reason: 'sync the catalogue' })
      .expect(200);
    ids.push(member.id);
  }
});
afterAll(() => t.close());

type Page<Item> = { list: Item[]; next: string | null };

async function allPages<Item>(path: string, limit: number): Promise<Page<Item>[]> {
  const pages: Page<Item>[] = [];
  let after: string | null = null;
  do {
    const query: string = after === null ? `limit=${limit}` : `limit=${limit}&after=${encodeURIComponent(after)}`;
    const page = (await admin.get(`${API}${path}?${query}`).expect(200)).body.data as Page<Item>;
    pages.push(page);
    after = page.next;
  } while (after !== null && pages.length < 20);
  return pages;
}

it('GET /credentials pages through every application once, in the order of member ids', async () => {
  const pages = await allPages<{ member_id: number }>('/credentials', 2);
  expect(pages.map((p) => p.list.length)).toEqual([2, 1]);
  expect(pages.at(-1)?.next).toBeNull();
  expect(pages.flatMap((p) => p.list.map((a) => a.member_id))).toEqual(ids);
});

it('GET /scope-requests pages by member id, then scope name, each request once, the scope as name', async () => {
  const pages = await allPages<{ member_id: number; name: string }>('/scope-requests', 4);
  expect(pages.map((p) => p.list.length)).toEqual([4, 2]);
  expect(pages.flatMap((p) => p.list.map((r) => `${r.member_id} ${r.name}`))).toEqual(
    ids.flatMap((id) => [`${id} addons.read`, `${id} member-groups.read`]),
  );
});

it('without limit, a page holds up to 50; a filter and the cursor go together', async () => {
  const first = (await admin.get(`${API}/credentials`).expect(200)).body.data as Page<unknown>;
  expect(first).toMatchObject({ list: expect.any(Array), next: null });
  expect(first.list).toHaveLength(3);
  const pending = (await admin.get(`${API}/scope-requests?status=pending&limit=1`).expect(200)).body.data as Page<{
    status: string;
  }>;
  expect(pending.list).toEqual([expect.objectContaining({ status: 'pending' })]);
  expect(pending.next).toEqual(expect.any(String));
});

it.each([
  ['limit=0', 'validation_failed'],
  ['limit=201', 'validation_failed'],
  ['limit=two', 'validation_failed'],
  ['after=not-a-cursor', 'invalid_cursor'],
])('refuses %s with 422 %s', async (query, error) => {
  await expectRefusal(t, () => admin.get(`${API}/credentials?${query}`), 422, error);
});

it('GET /credentials searches usernames (any case) and the start of API ids, and counts what it finds in each status', async () => {
  const all = (await admin.get(`${API}/credentials`).expect(200)).body.data as Page<{
    member_id: number;
    username: string;
    apiid: string;
  }> & { counts: Record<string, number> };
  expect(all.counts).toEqual(applicationCounts({ active: 3 }));
  const [first] = all.list;
  const byName = (
    await admin.get(`${API}/credentials?q=${encodeURIComponent(first!.username.toUpperCase())}`).expect(200)
  ).body.data;
  expect(byName.list.map((a: { member_id: number }) => a.member_id)).toEqual([first!.member_id]);
  expect(byName.counts).toMatchObject({ active: 1, pending: 0 });
  const byApiId = (await admin.get(`${API}/credentials?q=${first!.apiid.slice(0, 12)}&status=active`).expect(200)).body
    .data;
  expect(byApiId.list.map((a: { member_id: number }) => a.member_id)).toEqual([first!.member_id]);
  const none = (await admin.get(`${API}/credentials?q=nobody-has-this&status=active`).expect(200)).body.data;
  expect(none).toMatchObject({ list: [], next: null, counts: { active: 0 } });
  await expectRefusal(t, () => admin.get(`${API}/credentials?q=%20`), 422, 'validation_failed');
});

it('GET /scope-requests searches usernames and API ids, counts what it finds in each status, and pages the search', async () => {
  const all = (await admin.get(`${API}/scope-requests`).expect(200)).body.data as Page<{
    member_id: number;
    username: string;
  }> & { counts: Record<string, number> };
  expect(all.counts).toEqual(scopeRequestCounts({ pending: 6 }));
  const [first] = all.list;
  const byName = (
    await admin.get(`${API}/scope-requests?q=${encodeURIComponent(first!.username.toUpperCase())}&limit=1`).expect(200)
  ).body.data;
  expect(byName.list.map((r: { member_id: number }) => r.member_id)).toEqual([first!.member_id]);
  expect(byName.counts).toEqual(scopeRequestCounts({ pending: 2 }));
  const second = (
    await admin
      .get(
        `${API}/scope-requests?q=${encodeURIComponent(first!.username)}&limit=1&after=${encodeURIComponent(byName.next)}`,
      )
      .expect(200)
  ).body.data;
  expect(second).toMatchObject({ list: [expect.objectContaining({ member_id: first!.member_id })], next: null });
  const application = (await admin.get(`${API}/credentials?q=${encodeURIComponent(first!.username)}`).expect(200)).body
    .data.list[0] as { apiid: string };
  const byApiId = (
    await admin.get(`${API}/scope-requests?q=${application.apiid.slice(0, 12)}&status=approved`).expect(200)
  ).body.data;
  expect(byApiId).toMatchObject({ list: [], next: null, counts: { pending: 2, approved: 0 } });
});

it.each([['q=%20'], ['q=' + 'x'.repeat(101)], ['status=active'], ['limit=0']])(
  'GET /scope-requests refuses %s with 422, naming the field',
  async (query) => {
    const res = await expectRefusal(t, () => admin.get(`${API}/scope-requests?${query}`), 422, 'validation_failed');
    expect(res.body.data.issues?.[0]?.path).toBe(query.split('=')[0]);
  },
);
