import { adminBrowser, AdminBrowser, groupWithAdmin } from '../../access/http/access-clients';
import { expectRefusal, registerMember, startPlatform, TestPlatform } from '../../support/platform';

/** Decisions in bulk: many applications or scope requests in one request, each its own command and event. */

const API = '/api/v1';
let t: TestPlatform;
let root: AdminBrowser;

beforeAll(async () => {
  t = await startPlatform({ KEY_LIFETIME_DAYS: 90 });
  root = await adminBrowser(t);
});
afterAll(() => t.close());

/** Members who applied for credentials, each on their own browser. */
async function applicants(count: number) {
  const members = [];
  for (let i = 0; i < count; i++) {
    const developer = t.client();
    const member = await registerMember(developer);
    await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    members.push({ ...member, developer });
  }
  return members;
}

const statusOf = async (id: number) =>
  (
    (await root.get(`/credentials?limit=100`).expect(200)).body.data.list as { member_id: number; status: string }[]
  ).find((c) => c.member_id === id)?.status;

it('decides each item as its own command with the administrator as actor, answering one result per item in order', async () => {
  const [a, b, c] = await applicants(3);
  const before = (await t.allEvents()).length;
  const res = await root
    .post('/credentials/decisions', {
      items: [
        { member_id: a!.id, decision: 'approve', expires_in_days: 30 },
        { member_id: 999_999, decision: 'approve' },
        { member_id: b!.id, decision: 'reject', reason: 'no company named' },
        { member_id: c!.id, decision: 'approve' },
        { member_id: c!.id, decision: 'reject', reason: 'decided twice' },
      ],
    })
    .expect(200);
  const results = res.body.data.results as Record<string, unknown>[];
  expect(results.map((r) => [r.member_id, r.ok, r.error])).toEqual([
    [a!.id, true, undefined],
    [999_999, false, 'member_not_found'],
    [b!.id, true, undefined],
    [c!.id, expect.any(Boolean), results[3]!.ok ? undefined : 'credential_not_pending'],
    [c!.id, expect.any(Boolean), results[4]!.ok ? undefined : 'credential_not_pending'],
  ]);
  // Of the two decisions about c, run side by side, exactly one was recorded.
  expect([results[3]!.ok, results[4]!.ok].filter(Boolean)).toHaveLength(1);
  const days = (Date.parse(String(results[0]!.expires_at)) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  expect(res.body.message).toBe('3 of 5 decided, 2 refused (see each result)');

  const added = (await t.allEvents()).slice(before);
  expect(added.map((e) => e.type).sort()).toEqual(
    ['CredentialApproved', 'CredentialRejected', results[3]!.ok ? 'CredentialApproved' : 'CredentialRejected'].sort(),
  );
  for (const event of added) expect(event.metadata.actor).toEqual({ kind: 'admin', id: 1 });
  expect(added.find((e) => e.type === 'CredentialRejected' && e.data.member_id === b!.id)?.metadata.reason).toBe(
    'no company named',
  );
  // The caller's next read sees every decision (read-your-writes over the last of them).
  expect(await statusOf(a!.id)).toBe('approved');
  expect(await statusOf(b!.id)).toBe('rejected');
});

it('an approval without expiry gets KEY_LIFETIME_DAYS, and says so in its result', async () => {
  const [a] = await applicants(1);
  const res = await root
    .post('/credentials/decisions', { items: [{ member_id: a!.id, decision: 'approve' }] })
    .expect(200);
  const days = (Date.parse(res.body.data.results[0].expires_at) - Date.now()) / 86_400_000;
  expect(Math.round(days)).toBe(90);
});

it('decides scope requests in bulk', async () => {
  const [a] = await applicants(1);
  await root.post(`/credentials/${a!.id}/approve`).expect(200);
  await a!.developer.post(`${API}/developer/claim`).set('X-CSRF-Token', a!.token).send({}).expect(200);
  await a!.developer
    .post(`${API}/developer/scopes`)
    .set('X-CSRF-Token', a!.token)
    .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'sync' })
    .expect(200);
  const res = await root
    .post('/scope-requests/decisions', {
      items: [
        { member_id: a!.id, scope: 'addons.read', decision: 'approve' },
        { member_id: a!.id, scope: 'member-groups.read', decision: 'reject', reason: 'not needed' },
        { member_id: a!.id, scope: 'addons.read', decision: 'approve' },
      ],
    })
    .expect(200);
  const results = res.body.data.results as { scope: string; ok: boolean; error?: string }[];
  expect(results[1]).toEqual({ member_id: a!.id, scope: 'member-groups.read', ok: true });
  // The two approvals of addons.read raced on one stream: one decided it, the other was too late.
  expect(
    results
      .filter((r) => r.scope === 'addons.read')
      .map((r) => r.error ?? 'ok')
      .sort(),
  ).toEqual(['ok', 'scope_not_pending']);
});

describe('refusals of the whole request change nothing', () => {
  const cases: [string, unknown][] = [
    ['no items', { items: [] }],
    ['501 items', { items: Array.from({ length: 501 }, () => ({ member_id: 1, decision: 'approve' })) }],
    ['a rejection without reason', { items: [{ member_id: 1, decision: 'reject' }] }],
    ['a rejection with an expiry', { items: [{ member_id: 1, decision: 'reject', reason: 'x', expires_in_days: 3 }] }],
    ['both expiries', { items: [{ member_id: 1, decision: 'approve', expires_in_days: 3, expires_at: null }] }],
    ['an unknown decision', { items: [{ member_id: 1, decision: 'maybe' }] }],
    ['an unknown field', { items: [{ member_id: 1, decision: 'approve', note: 'x' }] }],
  ];
  it.each(cases)('%s: 422 validation_failed', async (_, body) => {
    const before = (await t.allEvents()).length;
    await expectRefusal(
      t,
      () =>
        root.client
          .post(`${API}/credentials/decisions`)
          .set('X-CSRF-Token', root.token)
          .send(body as object),
      422,
      'validation_failed',
    );
    expect((await t.allEvents()).length).toBe(before);
  });

  it('a scope item naming no registered scope', async () => {
    await expectRefusal(
      t,
      () => root.post('/scope-requests/decisions', { items: [{ member_id: 1, scope: 'nope', decision: 'approve' }] }),
      422,
      'validation_failed',
    );
  });

  it('malformed JSON, a wrong CSRF token, no session, and no credential.review', async () => {
    const [a] = await applicants(1);
    await expectRefusal(
      t,
      () =>
        root.client
          .post(`${API}/credentials/decisions`)
          .set('X-CSRF-Token', root.token)
          .set('Content-Type', 'application/json')
          .send('{"items": ['),
      422,
      'malformed_json',
    );
    const body = { items: [{ member_id: a!.id, decision: 'approve' }] };
    await expectRefusal(
      t,
      () => root.client.post(`${API}/credentials/decisions`).set('X-CSRF-Token', 'wrong').send(body),
      419,
      'csrf_token_invalid',
    );
    const stranger = t.client();
    const { body: session } = await stranger.get(`${API}/admin/session`).expect(200);
    await expectRefusal(
      t,
      () => stranger.post(`${API}/credentials/decisions`).set('X-CSRF-Token', session.data.csrf_token).send(body),
      401,
      'admin_not_logged_in',
    );
    const viewer = await adminBrowser(t, await groupWithAdmin(root, ['addon.view']));
    await expectRefusal(t, () => viewer.post('/credentials/decisions', body), 403, 'permission_denied');
    expect(await statusOf(a!.id)).toBe('pending');
  });
});
