import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { tryLogin } from './access-clients';

/**
 * Two API instances over one data directory, as two processes behind one load balancer: the
 * login limit and the folding of failed sign-ins must count the tries of both.
 */
describe('failed administrator sign-ins on two API instances over one store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-two-instances-'));
  const LIMIT = 4;
  let a: TestPlatform;
  let b: TestPlatform;
  let open: TestPlatform[] = [];
  beforeAll(async () => {
    a = await startPlatform({ LOGIN_MAX_FAILURES: LIMIT }, dir);
    b = await startPlatform({ LOGIN_MAX_FAILURES: LIMIT, PROJECTIONS: 'off' }, dir);
    open = [b, a];
  });
  afterAll(async () => {
    for (const t of open) await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fail = (t: TestPlatform, username: string) => tryLogin(t, { username, password: 'not-the-password' });

  it('refuses the try past the limit whichever instance the tries went to', async () => {
    const username = uniqueUsername('ghost');
    const tries = [a, b, a, b].map((t) => () => fail(t, username));
    for (const attempt of tries) expect((await attempt()).status).toBe(401);
    for (const t of [a, b]) {
      const refused = await fail(t, username);
      expect(refused.status).toBe(429);
      expect(refused.body.data.error).toBe('too_many_login_failures');
    }
  });

  it("appends one event a minute for a username and address, with both instances' tries in its count", async () => {
    const username = uniqueUsername('intruder');
    const answers = await Promise.all([a, a, b, b].map((t) => fail(t, username)));
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    // Stopping appends what is still counted, each instance its own pairs: the first one's append stands.
    open = [];
    await a.close();
    await b.close();
    const again = await startPlatform({}, dir);
    try {
      const failed = (await again.allEvents()).filter(
        (e) => e.type === 'AdministratorSignInFailed' && e.data.username === username,
      );
      expect(failed.reduce((sum, e) => sum + Number(e.data.count), 0)).toBe(4);
      // One event per minute: the tries straddled at most one minute's end.
      expect(new Set(failed.map((e) => e.data.minute)).size).toBe(failed.length);
    } finally {
      await again.close();
    }
  });
});
