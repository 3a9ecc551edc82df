import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expectRefused, platform } from '../../support/cli';
import { startPlatform } from '../../support/platform';

// The expected ids assume a fresh store, which only the embedded one can be; the in-process
// service below reads the same variables, so they go for the whole file.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

async function adminLogin(client: request.Agent, username: string, password: string) {
  const session = await client.get('/api/v1/admin/session').expect(200);
  return client
    .post('/api/v1/admin/login')
    .set('X-CSRF-Token', session.body.data.csrf_token)
    .send({ username, password });
}

describe('platform CLI on a store the API never started', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a role group under the first free id and lists it', async () => {
    const created = await platform(dir, [
      'roles',
      'create',
      '--name',
      'Reviewers',
      '--permissions',
      'credential.review,audit.read',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('id 1');

    const listed = await platform(dir, ['roles', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { id: 1, name: 'Reviewers', enabled: true, permissions: ['credential.review', 'audit.read'] },
    ]);
  });

  it('disables and enables a role group, and refuses to disable it twice', async () => {
    expect((await platform(dir, ['roles', 'disable', '1'])).code).toBe(0);
    expectRefused(await platform(dir, ['roles', 'disable', '1']), /role group 1 is already disabled/);
    expect((await platform(dir, ['roles', 'enable', '1'])).code).toBe(0);

    const table = await platform(dir, ['roles', 'list']);
    expect(table.stdout).toMatch(
      /^ID +NAME +ENABLED +PERMISSIONS\n1 +Reviewers +yes +credential\.review,audit\.read\n$/,
    );
  });

  it('creates a member group and lists it', async () => {
    const created = await platform(dir, [
      'member-groups',
      'create',
      '--name',
      'Partners',
      '--description',
      'Partner firms',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('id 1');

    const listed = await platform(dir, ['member-groups', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: 1, name: 'Partners', description: 'Partner firms' }]);
  });

  it('refuses bad arguments with one line and exit code 1', async () => {
    const [id, permission, neither] = await Promise.all([
      platform(dir, ['roles', 'enable', 'one']),
      platform(dir, ['roles', 'create', '--name', 'Bogus', '--permissions', 'addon.view,root']),
      platform(dir, ['admin', 'create', '--username', 'nobody']),
    ]);
    expectRefused(id, /'one' is invalid.*whole number/);
    expectRefused(permission, /unknown permission root/);
    expectRefused(neither, /either --super or --role/);
  });

  it('creates administrators whose passwords then log in to the API', async () => {
    const carol = await platform(
      dir,
      ['admin', 'create', '--username', 'carol', '--role', '1', '--password-stdin'],
      'carol-secret\n',
    );
    expect(carol).toMatchObject({ code: 0, stderr: '' });
    expect(carol.stdout).not.toContain('carol-secret');
    const carolId = Number(/id (\d+)/.exec(carol.stdout)?.[1]);

    const [taken, noRole, badEmail, erin] = await Promise.all([
      platform(dir, ['admin', 'create', '--username', 'carol', '--super']),
      platform(dir, ['admin', 'create', '--username', 'dave', '--role', '99']),
      platform(dir, ['admin', 'create', '--username', 'frank', '--super', '--email', 'frank-at-example']),
      platform(dir, ['admin', 'create', '--username', 'erin', '--super', '--email', 'erin@example.com']),
    ]);
    expectRefused(taken, /"carol" already exists/);
    expectRefused(noRole, /no role group 99/);
    expectRefused(badEmail, /e-mail address/);
    expect(erin).toMatchObject({ code: 0, stderr: '' });
    expect(erin.stdout).toMatch(/not shown again/);
    const erinPassword = /Password: (\S+)/.exec(erin.stdout)?.[1] ?? '';
    expect(erinPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const service = await startPlatform({}, dir);
    try {
      const asCarol = await adminLogin(service.client(), 'carol', 'carol-secret');
      expect(asCarol.status).toBe(200);
      expect(asCarol.body.data).toEqual({
        id: carolId,
        username: 'carol',
        is_super: false,
        role_id: 1,
        password_change_required: false,
        second_factor_required: false,
        second_factor_enrolment_required: false,
      });

      const asErin = await adminLogin(service.client(), 'erin', erinPassword);
      expect(asErin.status).toBe(200);
      expect(asErin.body.data).toMatchObject({ username: 'erin', is_super: true, role_id: null });
      // Where the reviewers' digest will reach erin; carol gave no address.
      const admins = await service.platform.stores.documents.find<{ username: string; email: string | null }>(
        'admins',
        {},
      );
      expect(admins.map((a) => [a.doc.username, a.doc.email])).toEqual(
        expect.arrayContaining([
          ['erin', 'erin@example.com'],
          ['carol', null],
        ]),
      );

      expect((await adminLogin(service.client(), 'dave', 'whatever')).status).toBe(401);
    } finally {
      await service.close();
    }
  });
});

describe('platform openapi', () => {
  it('stops quietly, exit code 0, when its reader stops early (platform openapi | head)', async () => {
    const root = join(__dirname, '../../..');
    const child = spawn(
      process.execPath,
      ['-r', join(root, 'test/support/load-ts.js'), join(root, 'src/cli.ts'), 'openapi'],
      { cwd: root },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    // The contract is larger than a pipe holds: the command is still writing when the reader leaves.
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
