import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

describe('first start on an empty store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-seed-'));
  const started: TestPlatform[] = [];
  afterAll(async () => {
    for (const t of started) await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds once even when two instances start together, and shows a generated password once', async () => {
    // The second as the docs have it beside the first: one process runs the projections.
    started.push(
      ...(await Promise.all(
        [{}, { PROJECTIONS: 'off' as const }].map((more) => startPlatform({ ADMIN_PASSWORD: undefined, ...more }, dir)),
      )),
    );
    const [a] = started as [TestPlatform];

    const events = await a.allEvents();
    const seeded = events.filter((e) =>
      ['RoleGroupDefined', 'MemberGroupDefined', 'AdminCreated', 'PlatformSeeded'].includes(e.type),
    );
    expect(seeded.map((e) => [e.type, e.data])).toEqual([
      [
        'RoleGroupDefined',
        { role_id: 1, name: 'Operators', permissions: ['addon.view', 'addon.manage', 'credential.review'] },
      ],
      ['RoleGroupDefined', { role_id: 2, name: 'Auditors', permissions: ['addon.view', 'audit.read'] }],
      ['MemberGroupDefined', { member_group_id: 1, name: 'Default', description: expect.any(String) }],
      ['AdminCreated', expect.objectContaining({ username: 'admin', is_super: true, role_id: null })],
      ['PlatformSeeded', {}],
    ]);

    const announcements = started.flatMap((t) => t.announcements);
    expect(announcements).toHaveLength(1);
    const password = /password "([^"]+)"/.exec(announcements[0]!)![1]!;
    expect(started.flatMap((t) => t.logLines).join('\n')).not.toContain(password);
    await logInAdmin(a.client(), { username: 'admin', password });
  });

  it('seeds nothing on a later start, whatever ADMIN_PASSWORD says then', async () => {
    const before = (await started[0]!.allEvents()).length;
    const later = await startPlatform({ ADMIN_PASSWORD: 'another-password', PROJECTIONS: 'off' }, dir);
    started.push(later);
    expect((await later.allEvents()).length).toBe(before);
    expect(later.announcements).toEqual([]);
    const client = later.client();
    const token = (await client.get('/api/v1/admin/session')).body.data.csrf_token as string;
    await client
      .post('/api/v1/admin/login')
      .set('X-CSRF-Token', token)
      .send({ username: 'admin', password: 'another-password' })
      .expect(401);
  });
});
