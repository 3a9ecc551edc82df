import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { API_KEY_RANDOM_BYTES, formatApiKey } from '../../../src/credential/api-key';
import { DocumentWrite, Stores } from '../../../src/stores/ports';
import { activePartner, mistypedKey, openCall, rotate } from '../../support/credentials';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';
const usageWrites: number[] = [];

/** Notes the time of every store write that carries usage counts. */
function watchingUsageWrites(stores: Stores): Stores {
  const documents = stores.documents;
  const write = documents.write.bind(documents);
  documents.write = async (writes: DocumentWrite[], checkpoint) => {
    if (writes.some((w) => w.collection === 'key_usage')) usageWrites.push(Date.now());
    return write(writes, checkpoint);
  };
  return stores;
}

let t: TestPlatform;
const dataDir = mkdtempSync(join(tmpdir(), 'key-usage-'));
// "However many calls" is as many as the partner lane answers in 2.5 s: far more than the default limit.
const unlimited = { OPEN_API_RATE_LIMIT: 1_000_000 };
beforeAll(async () => {
  t = await startPlatform(unlimited, dataDir, watchingUsageWrites);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const today = () => new Date().toISOString().slice(0, 10);

describe('usage per key', () => {
  it('counts calls and refusals per day for the member and the reviewers, and survives a restart', async () => {
    const p = await activePartner(t);
    const other = await activePartner(t, []);
    const before = Date.now();
    for (let i = 0; i < 3; i++) await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    await openCall(t, '/open/addons', p.apiid, other.apikey).expect(401);
    // A malformed key against a known API id is a wrong key as much as a well-formed one.
    await openCall(t, '/open/addons', p.apiid, mistypedKey(p.apikey)).expect(401);
    await openCall(t, '/open/member-groups', p.apiid, p.apikey).expect(403);
    await openCall(t, '/open/addons', 'ak_aaaaaaaaaaaaaaaaaaaa', p.apikey).expect(401);

    const mine = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    expect(mine.days).toHaveLength(30);
    // The other partner's key and the mistyped one are not this credential's: counted apart, not as calls.
    expect(mine.days[29]).toEqual({ date: today(), calls: 4, refused: 1, wrong_key: 2 });
    expect(mine.keys).toEqual([
      {
        key: expect.stringMatching(/^[0-9a-f]{8}$/),
        state: 'current',
        valid_until: null,
        calls: 4,
        refused: 1,
        last_used_at: mine.last_used_at,
      },
    ]);
    expect(mine.days.slice(0, 29).every((d: { calls: number }) => d.calls === 0)).toBe(true);
    expect(Date.parse(mine.last_used_at)).toBeGreaterThanOrEqual(before - 5);

    const reviewed = (await p.admin.get(`${API}/credentials/${p.member.id}/usage`).expect(200)).body.data;
    expect(reviewed).toEqual(mine);
    const listed = (await p.admin.get(`${API}/credentials`).expect(200)).body.data.list as {
      member_id: number;
      last_used_at: string | null;
    }[];
    expect(listed.find((c) => c.member_id === p.member.id)?.last_used_at).toBe(mine.last_used_at);

    await t.close();
    t = await startPlatform(unlimited, dataDir, watchingUsageWrites);
    const admin = t.client();
    await logInAdmin(admin);
    expect((await admin.get(`${API}/credentials/${p.member.id}/usage`).expect(200)).body.data).toEqual(mine);
  });

  it("answers the credential's last calls, newest first, wrong keys included, others' never", async () => {
    const p = await activePartner(t);
    const other = await activePartner(t);
    await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    await openCall(t, '/open/addons?page=2', p.apiid, p.apikey).expect(422);
    await openCall(t, '/open/member-groups', p.apiid, p.apikey).expect(403);
    await openCall(t, '/open/addons', p.apiid, mistypedKey(p.apikey)).expect(401);
    await openCall(t, '/open/addons', other.apiid, other.apikey).expect(200);
    const usage = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    const calls = (await p.developer.get(`${API}/developer/calls`).expect(200)).body.data.list;
    const key = usage.keys[0].key as string;
    expect(calls).toEqual([
      {
        time: expect.any(String),
        method: 'GET',
        path: '/api/v1/open/addons',
        status: 401,
        latency_ms: expect.any(Number),
        key_fingerprint: null,
      },
      {
        time: expect.any(String),
        method: 'GET',
        path: '/api/v1/open/member-groups',
        status: 403,
        latency_ms: expect.any(Number),
        key_fingerprint: key,
      },
      {
        time: expect.any(String),
        method: 'GET',
        path: '/api/v1/open/addons?page=2',
        status: 422,
        latency_ms: expect.any(Number),
        key_fingerprint: key,
      },
      {
        time: expect.any(String),
        method: 'GET',
        path: '/api/v1/open/addons',
        status: 200,
        latency_ms: expect.any(Number),
        key_fingerprint: key,
      },
    ]);
    expect(Date.parse(calls[0].time)).toBeGreaterThanOrEqual(Date.parse(calls[3].time));
    // Only the last 100 are kept.
    for (let i = 0; i < 105; i++) await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    const kept = (await p.developer.get(`${API}/developer/calls`).expect(200)).body.data.list;
    expect(kept).toHaveLength(100);
    expect(kept.every((c: { status: number }) => c.status === 200)).toBe(true);
    await expectRefusal(t, () => t.client().get(`${API}/developer/calls`), 401, 'not_logged_in');
  });

  it("made-up keys against a member's API id do not make its credential look used, revoked or not", async () => {
    const p = await activePartner(t);
    const madeUp = () => formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
    for (let i = 0; i < 5; i++) await openCall(t, '/open/addons', p.apiid, madeUp()).expect(401);
    const usage = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    expect(usage.last_used_at).toBeNull();
    expect(usage.days[29]).toEqual({ date: today(), calls: 0, refused: 0, wrong_key: 5 });
    const listed = (await p.admin.get(`${API}/credentials`).expect(200)).body.data.list as {
      member_id: number;
      last_used_at: string | null;
    }[];
    expect(listed.find((c) => c.member_id === p.member.id)?.last_used_at).toBeNull();

    await p.admin
      .post(`${API}/credentials/${p.member.id}/revoke`)
      .set('X-CSRF-Token', p.adminToken)
      .send({ reason: 'test' })
      .expect(200);
    for (let i = 0; i < 5; i++) await openCall(t, '/open/addons', p.apiid, madeUp()).expect(401);
    const revoked = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    expect(revoked.last_used_at).toBeNull();
    expect(revoked.days[29]).toEqual({ date: today(), calls: 0, refused: 0, wrong_key: 10 });
  });

  it('after a rotation, tells the current key from the previous one, with when the previous one stops', async () => {
    const p = await activePartner(t);
    await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    const rotated = await rotate(p, { grace_seconds: 3600 });
    await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    await openCall(t, '/open/member-groups', p.apiid, p.apikey).expect(403);
    await openCall(t, '/open/addons', p.apiid, rotated).expect(200);

    const usage = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    expect(usage.days[29]).toMatchObject({ calls: 4, refused: 1 });
    const [current, previous] = usage.keys;
    expect(usage.keys).toHaveLength(2);
    expect(current).toMatchObject({ state: 'current', valid_until: null, calls: 1, refused: 0 });
    expect(previous).toMatchObject({ state: 'in_grace', calls: 3, refused: 1 });
    expect(Date.parse(previous.valid_until) - Date.now()).toBeGreaterThan(3500_000);
    expect(current.key).not.toBe(previous.key);
    // The fingerprint is not the key, nor any part of it a partner sends.
    expect(JSON.stringify(usage)).not.toContain(p.apikey.slice(-8));

    // A rotation without grace stops the previous key: its calls stay, said stopped.
    await rotate({ ...p, apikey: rotated }, { grace_seconds: 0 });
    const after = (await p.developer.get(`${API}/developer/usage`).expect(200)).body.data;
    expect(after.keys.map((k: { state: string; calls: number }) => [k.state, k.calls])).toEqual([
      ['current', 0],
      ['stopped', 1],
      ['stopped', 3],
    ]);
  });

  it('writes the counts at most once a second, however many calls', async () => {
    const p = await activePartner(t);
    usageWrites.length = 0;
    const started = Date.now();
    while (Date.now() - started < 2500) {
      await Promise.all(Array.from({ length: 10 }, () => openCall(t, '/open/addons', p.apiid, p.apikey).expect(200)));
    }
    expect(usageWrites.length).toBeGreaterThanOrEqual(1);
    expect(usageWrites.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < usageWrites.length; i++)
      expect(usageWrites[i]! - usageWrites[i - 1]!).toBeGreaterThanOrEqual(900);
  });

  it('a member who never applied has no use; the reviewers get 404 for them', async () => {
    const admin = t.client();
    await logInAdmin(admin);
    await expectRefusal(t, () => admin.get(`${API}/credentials/999999/usage`), 404, 'credential_not_found');
    await request(t.server).get(`${API}/developer/usage`).expect(401);
  });
});
