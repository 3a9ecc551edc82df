import request from 'supertest';
import { approvedMember } from '../../support/credentials';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

/** The audit search across members: by event type, actor and time range, a page at a time. */

const API = '/api/v1';
let t: TestPlatform;
let auditor: request.Agent;
const members: { id: number; username: string }[] = [];
let between = '';

type Found = {
  type: string;
  actor: { username: string | null } | null;
  member_id: number | null;
  time: string;
  position: string;
};
type Page = { list: Found[]; next: string | null };

beforeAll(async () => {
  t = await startPlatform();
  auditor = t.client();
  await logInAdmin(auditor);
  for (let i = 0; i < 3; i++) {
    const { member } = await approvedMember(t);
    members.push({ id: member.id, username: member.username });
    if (i === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      between = new Date().toISOString();
    }
  }
});
afterAll(() => t.close());

const search = async (query: string): Promise<Page> =>
  (await auditor.get(`${API}/audit/search?${query}`).expect(200)).body.data as Page;

it('finds the events of one type across members, each with the member it is about', async () => {
  const page = await search('type=CredentialApproved');
  expect(page.list.map((e) => e.member_id)).toEqual(members.map((m) => m.id));
  expect(page.list.every((e) => e.type === 'CredentialApproved' && e.actor?.username === 'admin')).toBe(true);
  expect(page.next).toBeNull();
});

it("finds one actor's events, in any case, and only in the time range", async () => {
  const byMember = await search(`actor=${members[1]!.username.toUpperCase()}`);
  expect(byMember.list.length).toBeGreaterThan(0);
  expect(byMember.list.every((e) => e.actor?.username === members[1]!.username)).toBe(true);
  const later = await search(`type=CredentialApproved&from=${encodeURIComponent(between)}`);
  expect(later.list.map((e) => e.member_id)).toEqual([members[1]!.id, members[2]!.id]);
  const earlier = await search(`type=CredentialApproved&to=${encodeURIComponent(between)}`);
  expect(earlier.list.map((e) => e.member_id)).toEqual([members[0]!.id]);
});

it('pages by the cursor, each event once', async () => {
  const first = await search('type=CredentialApproved&limit=2');
  expect(first.list).toHaveLength(2);
  const second = await search(`type=CredentialApproved&limit=2&after=${encodeURIComponent(first.next!)}`);
  expect([...first.list, ...second.list].map((e) => e.member_id)).toEqual(members.map((m) => m.id));
});

it.each([
  ['from=yesterday', 'from'],
  ['to=2026-11-28T10:00:00', 'to'],
  ['from=2026-11-28T10:00:00Z&to=2026-11-28T09:00:00Z', 'from'],
  ['type=NoSuchEvent', 'type'],
  ['actor=', 'actor'],
  ['limit=500', 'limit'],
])('refuses %s with 422 naming %s, and a clear message', async (query, field) => {
  const res = await expectRefusal(t, () => auditor.get(`${API}/audit/search?${query}`), 422, 'validation_failed');
  const issue = (res.body.data.issues as { path: string; message: string }[]).find((i) => i.path === field);
  expect(issue?.message.length).toBeGreaterThan(10);
});

it('refuses a cursor that is no position of the log, and a caller without audit.read', async () => {
  await expectRefusal(t, () => auditor.get(`${API}/audit/search?after=not-a-position`), 422, 'invalid_position');
  await request(t.server).get(`${API}/audit/search`).expect(401);
});
