import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, startPlatform, TestPlatform } from '../../support/platform';
import { auditExport } from '../../support/audit-export';
import { adminBrowser, groupWithAdmin, tryLogin } from './access-clients';

const FLOOD = 40;

/** The audit search's events of one type, as an auditor (the super administrator) reads them. */
async function searched(t: TestPlatform, type: string): Promise<{ type: string; summary: string; actor: unknown }[]> {
  const root = await adminBrowser(t);
  return (await root.get(`/audit/search?type=${type}&limit=200`).expect(200)).body.data.list;
}

describe('access is audited (docs/administrators.md, "Access is audited")', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform({ LOGIN_MAX_FAILURES: 100_000 });
  });
  afterAll(() => t.close());

  it('records a sign-in and a sign-out, worded, in the audit search', async () => {
    const root = await adminBrowser(t);
    const operator = await groupWithAdmin(root, ['addon.view']);
    const browser = await adminBrowser(t, operator);
    await browser.post('/admin/logout').expect(200);
    const signedIn = await searched(t, 'AdministratorSignedIn');
    expect(signedIn.map((e) => e.summary)).toContain(`administrator ${operator.id} signed in from 127.0.0.1`);
    const signedOut = await searched(t, 'AdministratorSignedOut');
    expect(signedOut.map((e) => e.summary)).toContain(`administrator ${operator.id} signed out`);
  });

  it('records the sessions a disable ended', async () => {
    const root = await adminBrowser(t);
    const operator = await groupWithAdmin(root, ['addon.view']);
    await adminBrowser(t, operator);
    await adminBrowser(t, operator);
    await root.post(`/administrators/${operator.id}/disable`).expect(200);
    const ended = (await searched(t, 'AdministratorSignedOut')).map((e) => e.summary);
    expect(ended).toContain(`ended 2 sessions of administrator ${operator.id}, disabled`);
  });
});

describe('failed administrator sign-ins', () => {
  it('are folded under a concurrent flood: one event for the username and address, with the count of tries, in the search and the export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-test-'));
    // Every try checked at once: the bound on password checks in flight (503 when over it) is not what this tests.
    const first = await startPlatform({ LOGIN_MAX_FAILURES: 100_000, PASSWORD_CHECKS_IN_FLIGHT: FLOOD }, dir);
    const answers = await Promise.all(
      Array.from({ length: FLOOD }, () => tryLogin(first, { username: 'admin', password: 'not-the-password' })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
    // Unlike the log, nothing else in the tries was lost: a later right password still signs in.
    expect((await tryLogin(first, { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    // Stopping appends what is still counted; the minute may also have ended meanwhile.
    await first.close();
    const again = await startPlatform({}, dir);
    try {
      const failed = (await again.allEvents()).filter((e) => e.type === 'AdministratorSignInFailed');
      expect(failed.reduce((sum, e) => sum + Number(e.data.count), 0)).toBe(FLOOD);
      // One event a minute: the flood straddled at most one minute's end.
      expect(failed.length).toBeLessThanOrEqual(2);
      expect(failed[0]!.data).toMatchObject({ username: 'admin', address: '127.0.0.1' });
      const found = await searched(again, 'AdministratorSignInFailed');
      expect(found).toHaveLength(failed.length);
      expect(found[0]!.summary).toMatch(
        /^\d+ failed sign-ins? as the administrator "admin" from 127\.0\.0\.1 in the minute from /,
      );
      const root = await adminBrowser(again);
      const exported = await auditExport(root);
      expect(exported.filter((e) => e.type === 'AdministratorSignInFailed')).toHaveLength(failed.length);
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
