import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { activePartner, openCall, rotate } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';

/** Milliseconds until `check` holds, polling every 10 ms; fails after `limitMs`. */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`still not true after ${limitMs} ms`);
    await sleep(10);
  }
  return Date.now() - started;
}

describe('two API instances on one store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-keyring-'));
  let a: TestPlatform;
  let b: TestPlatform;

  beforeAll(async () => {
    a = await startPlatform({}, dir);
    b = await startPlatform({ PROJECTIONS: 'off' }, dir);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = async (t: TestPlatform, apiid: string, key: string) =>
    (await openCall(t, '/open/addons', apiid, key)).status;

  it('a key claimed on one instance works on the other, and a rotation there stops the old key within one second', async () => {
    const p = await activePartner(a);
    await timeUntil(async () => (await status(b, p.apiid, p.apikey)) === 200, 1000);

    const newKey = await rotate(p);
    expect(await status(a, p.apiid, p.apikey)).toBe(401);
    const elapsed = await timeUntil(async () => (await status(b, p.apiid, p.apikey)) === 401, 1000);
    expect(elapsed).toBeLessThan(1000);
    expect(await status(b, p.apiid, newKey)).toBe(200);
  });

  it('a revocation on one instance takes effect on the other within one second', async () => {
    const p = await activePartner(a);
    await timeUntil(async () => (await status(b, p.apiid, p.apikey)) === 200, 1000);
    await p.admin
      .post(`/api/v1/credentials/${p.member.id}/revoke`)
      .set('X-CSRF-Token', p.adminToken)
      .send({ reason: 'key leaked in a public repository' })
      .expect(200);
    expect(await status(a, p.apiid, p.apikey)).toBe(401);
    await timeUntil(async () => (await status(b, p.apiid, p.apikey)) === 401, 1000);
  });

  it('a rotation without grace stops every older key on every instance, those still in an earlier grace period too', async () => {
    const p = await activePartner(a);
    const second = await rotate(p, { grace_seconds: 3600 });
    await timeUntil(async () => (await status(b, p.apiid, second)) === 200, 1000);
    expect(await status(b, p.apiid, p.apikey)).toBe(200);

    const third = await rotate(p, { grace_seconds: 0 });
    for (const key of [p.apikey, second]) expect(await status(a, p.apiid, key)).toBe(401);
    expect(await status(a, p.apiid, third)).toBe(200);
    await timeUntil(async () => (await status(b, p.apiid, p.apikey)) === 401, 1000);
    expect(await status(b, p.apiid, second)).toBe(401);
  });

  it('a member never holds more than three rotated-away keys at once', async () => {
    const p = await activePartner(a);
    const keys = [p.apikey];
    for (let i = 0; i < 4; i++) keys.push(await rotate(p, { grace_seconds: 3600 }));
    // Current, previous and two earlier: the first key has fallen out.
    expect(await Promise.all(keys.map((key) => status(a, p.apiid, key)))).toEqual([401, 200, 200, 200, 200]);
  });

  it('a rotation with grace_seconds keeps the old key valid on every instance until the grace ends', async () => {
    const p = await activePartner(a);
    const res = await p.developer
      .post('/api/v1/developer/rotate')
      .set('X-CSRF-Token', (await p.developer.get('/api/v1/developer/session')).body.data.csrf_token)
      .send({ grace_seconds: 1 })
      .expect(200);
    const until = Date.parse(res.body.data.previous_key_valid_until);
    expect(until).toBeGreaterThan(Date.now());
    expect(until - Date.now()).toBeLessThanOrEqual(1000);
    await timeUntil(async () => (await status(b, p.apiid, res.body.data.apikey)) === 200, 1000);
    expect(await status(a, p.apiid, p.apikey)).toBe(200);
    expect(await status(b, p.apiid, p.apikey)).toBe(200);

    await sleep(until - Date.now() + 20);
    expect(await status(a, p.apiid, p.apikey)).toBe(401);
    expect(await status(b, p.apiid, p.apikey)).toBe(401);
    expect(await status(b, p.apiid, res.body.data.apikey)).toBe(200);
  });
});
