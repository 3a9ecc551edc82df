import { REGISTRY } from '../../../src/compose';
import { createAdmin } from '../../../src/access/admins';
import { argon2Hasher } from '../../../src/member/passwords';
import { CommandContext } from '../../../src/shared/commands/context';
import { uniqueUsername } from '../../support/platform';
import { accessPlatform, adminBrowser, groupWithAdmin, ownPasswordFor, SUPER, tryLogin } from './access-clients';
import { SHELL } from '../../../src/access/grantor';

const p = accessPlatform();

const cli = (): CommandContext => ({ actor: { kind: 'cli', id: 'test' }, requestId: 'test', now: new Date() });

async function superByCli(): Promise<{ id: number; username: string; password: string }> {
  const admin = { username: uniqueUsername('p.root'), password: 'super-secret', is_super: true, role_id: null };
  const { id } = await createAdmin(p.t.platform.stores.events, argon2Hasher(), admin, SHELL, cli());
  return { id, username: admin.username, password: admin.password };
}

describe('administrators over the API', () => {
  it('creates one in a role group: without mail, even with an e-mail address, its one-time password signs in, the group permission holds, another is refused', async () => {
    const group = await p.root.post('/role-groups', { name: 'Viewers', permissions: ['addon.view'] }).expect(200);
    const username = uniqueUsername('aud');
    const created = await p.root
      .post('/administrators', { username, role_group_id: group.body.data.id, email: 'aud@example.com' })
      .expect(200);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      username,
      is_super: false,
      role_id: group.body.data.id,
      email: 'aud@example.com',
      enabled: true,
      single_sign_on: false,
      second_factors: { passkeys: 0, totp: false },
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      invitation_sent_to: null,
    });
    const listed = await p.root.get('/administrators').expect(200);
    const { password, invitation_sent_to: _none, ...shown } = created.body.data;
    expect(listed.body.data.list).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain(password);

    const first = await adminBrowser(p.t, { username, password });
    await p.refused(() => first.get('/addons'), 403, 'password_change_required');
    const auditor = await adminBrowser(p.t, { username, password: await ownPasswordFor(p.t, username, password) });
    await auditor.get('/addons').expect(200);
    await p.refused(() => auditor.get('/credentials'), 403, 'permission_denied');
    await p.refused(() => auditor.get('/administrators'), 403, 'permission_denied');
  });

  it('refuses an unknown role group, a bad username and an unknown field, creating nothing', async () => {
    await p.refused(
      () => p.root.post('/administrators', { username: uniqueUsername('x'), role_group_id: 9999 }),
      422,
      'role_group_not_found',
    );
    await p.refused(
      () => p.root.post('/administrators', { username: '1bad', role_group_id: 1 }),
      422,
      'invalid_username',
    );
    await p.refused(
      () => p.root.post('/administrators', { username: uniqueUsername('x'), role_group_id: 1, is_super: true }),
      422,
      'validation_failed',
    );
  });

  it('lets exactly one of two simultaneous creations of one username win', async () => {
    const username = uniqueUsername('twin');
    const answers = await Promise.all([1, 2].map(() => p.root.post('/administrators', { username, role_group_id: 1 })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.data.error).toBe('admin_username_taken');
    const named = (await p.root.get('/administrators')).body.data.list.filter(
      (a: { username: string }) => a.username === username,
    );
    expect(named).toHaveLength(1);
  });

  it('disables one: the next request of each of their sessions is 401, their login is refused; enabled, they sign in again', async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view']);
    const first = await adminBrowser(p.t, operator);
    const second = await adminBrowser(p.t, operator);
    await first.get('/addons').expect(200);

    const disabled = await p.root.post(`/administrators/${operator.id}/disable`).expect(200);
    expect(disabled.body.data).toMatchObject({ id: operator.id, enabled: false });
    await p.refused(() => first.get('/addons'), 401, 'session_expired');
    await p.refused(() => second.get('/context'), 401, 'session_expired');
    const login = await tryLogin(p.t, operator);
    expect([login.status, login.body.data.error]).toEqual([403, 'admin_disabled']);
    await p.refused(() => p.root.post(`/administrators/${operator.id}/disable`), 422, 'admin_already_disabled');

    await p.root.post(`/administrators/${operator.id}/enable`).expect(200);
    const again = await adminBrowser(p.t, operator);
    await again.get('/addons').expect(200);
  });

  it('answers 404 for an administrator that does not exist', async () => {
    await p.refused(() => p.root.post('/administrators/9999/disable'), 404, 'admin_not_found');
    await p.refused(() => p.root.post('/administrators/9999/password-reset'), 404, 'admin_not_found');
  });

  it("refuses to disable or reset one's own account, which stays signed in", async () => {
    const manager = await groupWithAdmin(p.root, ['access.manage']);
    const self = await adminBrowser(p.t, manager);
    const disabled = await p.refused(() => self.post(`/administrators/${manager.id}/disable`), 409, 'own_account');
    expect(disabled.body.message).toContain('another administrator');
    const reset = await p.refused(() => self.post(`/administrators/${manager.id}/password-reset`), 409, 'own_account');
    expect(reset.body.message).toContain('POST /admin/password');
    await self.get('/administrators').expect(200);
    await tryLogin(p.t, manager).then((answer) => expect(answer.status).toBe(200));
  });

  it('never disables the last enabled super administrator, even asked twice at once', async () => {
    const other = await superByCli();
    // Only a super administrator disables a super one: each of the two disables the other at once.
    const [a, b] = await Promise.all([adminBrowser(p.t), adminBrowser(p.t, other)]);
    const answers = await Promise.all([
      a.post(`/administrators/${other.id}/disable`),
      b.post('/administrators/1/disable'),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body.data.error).toBe('last_super_admin');

    // The one still enabled reads the list and enables the other again.
    const still = answers[0]!.status === 200 ? a : b;
    const supers = (await still.get('/administrators').expect(200)).body.data.list.filter(
      (x: { is_super: boolean }) => x.is_super,
    );
    expect(supers.filter((x: { enabled: boolean }) => x.enabled)).toHaveLength(1);
    const off = supers.find((x: { enabled: boolean }) => !x.enabled);
    await still.post(`/administrators/${off.id}/enable`).expect(200);
    // The winner may have been the seeded super administrator, whose sessions then ended.
    p.root = await adminBrowser(p.t);
  });

  it('lets only a super administrator disable, enable or reset a super administrator, changing nothing when refused', async () => {
    const other = await superByCli();
    const asOther = await adminBrowser(p.t, other);
    const manager = await adminBrowser(p.t, await groupWithAdmin(p.root, ['access.manage']));
    const reset = await p.refused(
      () => manager.post(`/administrators/${other.id}/password-reset`),
      403,
      'super_admin_only',
    );
    expect(reset.body.message).toContain('only a super administrator');
    expect(reset.body.data.password).toBeUndefined();
    await p.refused(() => manager.post(`/administrators/${other.id}/disable`), 403, 'super_admin_only');
    await asOther.get('/administrators').expect(200);
    expect((await tryLogin(p.t, other)).status).toBe(200);

    await p.root.post(`/administrators/${other.id}/disable`).expect(200);
    await p.refused(() => manager.post(`/administrators/${other.id}/enable`), 403, 'super_admin_only');
    expect((await tryLogin(p.t, other)).body.data.error).toBe('admin_disabled');
    await p.root.post(`/administrators/${other.id}/enable`).expect(200);
    const again = await p.root.post(`/administrators/${other.id}/password-reset`).expect(200);
    expect((await tryLogin(p.t, { username: other.username, password: again.body.data.password })).status).toBe(200);
  });

  it('resets a password: the one-time one signs in, the old one and the old sessions no longer work', async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view']);
    const before = await adminBrowser(p.t, operator);
    const reset = await p.root.post(`/administrators/${operator.id}/password-reset`).expect(200);
    expect(reset.body.data).toEqual({ id: operator.id, password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
    await p.refused(() => before.get('/addons'), 401, 'session_expired');
    expect((await tryLogin(p.t, operator)).status).toBe(401);
    const after = await adminBrowser(p.t, { username: operator.username, password: reset.body.data.password });
    await p.refused(() => after.get('/addons'), 403, 'password_change_required');
    await after
      .post('/admin/password', { current_password: reset.body.data.password, new_password: 'chosen-after-reset' })
      .expect(200);
    await after.get('/addons').expect(200);
  });

  it('refuses each of these writes to an administrator without access.manage', async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view', 'addon.manage']);
    const asOperator = await adminBrowser(p.t, operator);
    await p.refused(
      () => asOperator.post('/administrators', { username: uniqueUsername('x'), role_group_id: 1 }),
      403,
      'permission_denied',
    );
    await p.refused(() => asOperator.post('/administrators/1/disable'), 403, 'permission_denied');
    await p.refused(() => asOperator.post(`/administrators/${operator.id}/password-reset`), 403, 'permission_denied');
    await p.refused(
      () =>
        p.root.client
          .post('/api/v1/administrators')
          .set('X-CSRF-Token', 'stale')
          .send({ username: 'x', role_group_id: 1 }),
      419,
      'csrf_token_invalid',
    );
  });
});

describe('POST /admin/password', () => {
  it("changes one's own password and ends one's other sessions, not this one", async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view']);
    const here = await adminBrowser(p.t, operator);
    const elsewhere = await adminBrowser(p.t, operator);
    const res = await here
      .post('/admin/password', { current_password: operator.password, new_password: 'a-new-secret' })
      .expect(200);
    expect(res.body.message).toMatch(/1 other session ended/);
    await here.get('/addons').expect(200);
    await p.refused(() => elsewhere.get('/addons'), 401, 'session_expired');
    expect((await tryLogin(p.t, operator)).status).toBe(401);
    expect((await tryLogin(p.t, { username: operator.username, password: 'a-new-secret' })).status).toBe(200);
  });

  it('refuses a wrong current password and a too short new one, changing nothing', async () => {
    const here = await adminBrowser(p.t, SUPER);
    await p.refused(
      () => here.post('/admin/password', { current_password: 'not-it', new_password: 'whatever1' }),
      422,
      'wrong_current_password',
    );
    await p.refused(
      () => here.post('/admin/password', { current_password: SUPER.password, new_password: '123' }),
      422,
      'validation_failed',
    );
    await p.refused(() => p.t.client().post('/api/v1/admin/password').send({}), 419, 'csrf_token_missing');
  });
});

describe('the audit trail', () => {
  it('words every administrator decision with its actor', async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view'], { keepOneTime: true });
    await p.root.post(`/administrators/${operator.id}/disable`).expect(200);
    await p.root.post(`/administrators/${operator.id}/enable`).expect(200);
    await p.root.post(`/administrators/${operator.id}/password-reset`).expect(200);
    const ours = (await p.t.allEvents()).filter(
      (e) => e.data.admin_id === operator.id && e.type !== 'AdminIdAllocated',
    );
    expect(ours.map((e) => [e.type, e.metadata.actor])).toEqual([
      ['AdminCreated', { kind: 'admin', id: 1 }],
      ['AdminDisabled', { kind: 'admin', id: 1 }],
      ['AdminEnabled', { kind: 'admin', id: 1 }],
      ['AdminPasswordReset', { kind: 'admin', id: 1 }],
    ]);
    const words = ours.map((e) => REGISTRY.describe(e.type, e.data));
    expect(words[1]).toBe(`disabled administrator ${operator.id}: refused at login, every session ended`);
    expect(words.join(' ')).not.toMatch(/argon2/);
  });
});
