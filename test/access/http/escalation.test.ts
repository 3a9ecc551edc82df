import { REGISTRY } from '../../../src/compose';
import { uniqueUsername } from '../../support/platform';
import { accessPlatform, adminBrowser, AdminBrowser, groupWithAdmin, ownPasswordFor, tryLogin } from './access-clients';

const p = accessPlatform();

/** A holder of access.manage and nothing else, signed in, as the attacker of issue 43 was. */
async function manager(): Promise<{ id: number; browser: AdminBrowser }> {
  const account = await groupWithAdmin(p.root, ['access.manage']);
  return { id: account.id, browser: await adminBrowser(p.t, account) };
}

const listed = async (path: string) => (await p.root.get(path).expect(200)).body.data.list as { id: number }[];

describe('no escalation through access.manage (docs/administrators.md, "No escalation")', () => {
  it('refuses a role group with a permission the caller does not hold, defining nothing', async () => {
    const { browser } = await manager();
    const before = await listed('/role-groups');
    const everything = await p.refused(
      () =>
        browser.post('/role-groups', { name: `All ${uniqueUsername('g')}`, permissions: [...REGISTRY.permissions] }),
      403,
      'permission_not_held',
    );
    expect(everything.body.message).toMatch(/addon\.view/);
    expect(await listed('/role-groups')).toEqual(before);
    await browser
      .post('/role-groups', { name: `Peers ${uniqueUsername('g')}`, permissions: ['access.manage'] })
      .expect(200);
  });

  it('refuses to enable or disable a group holding a permission the caller does not hold', async () => {
    const { browser } = await manager();
    const auditors = await p.root
      .post('/role-groups', { name: `Aud ${uniqueUsername('g')}`, permissions: ['audit.read'] })
      .expect(200);
    const id = auditors.body.data.id as number;
    const refused = await p.refused(() => browser.post(`/role-groups/${id}/disable`), 403, 'permission_not_held');
    expect(refused.body.message).toMatch(/audit\.read/);
    await p.root.post(`/role-groups/${id}/disable`).expect(200);
    await p.refused(() => browser.post(`/role-groups/${id}/enable`), 403, 'permission_not_held');
    expect((await listed('/role-groups')).find((g) => g.id === id)).toMatchObject({ enabled: false });
  });

  it('refuses an administrator in a stronger group, creating nobody and answering no password', async () => {
    const { browser } = await manager();
    const before = await listed('/administrators');
    const refused = await p.refused(
      () => browser.post('/administrators', { username: uniqueUsername('sock'), role_group_id: 1 }),
      403,
      'permission_not_held',
    );
    expect(refused.body.message).toMatch(/addon\.view/);
    expect(refused.body.data.password).toBeUndefined();
    expect(await listed('/administrators')).toEqual(before);
  });

  it("refuses an administrator in another group holding webhook.manage: that group's webhooks stay out of reach", async () => {
    const { browser } = await manager();
    const hooks = await p.root
      .post('/role-groups', { name: `Hooks ${uniqueUsername('g')}`, permissions: ['webhook.manage'] })
      .expect(200);
    const refused = await p.refused(
      () => browser.post('/administrators', { username: uniqueUsername('hook'), role_group_id: hooks.body.data.id }),
      403,
      'permission_not_held',
    );
    expect(refused.body.message).toMatch(/webhook\.manage/);
  });

  it("holds webhook.manage for the caller's own group only: it places nobody in another group holding it, nor resets one there", async () => {
    const hooksManager = await groupWithAdmin(p.root, ['access.manage', 'webhook.manage']);
    const browser = await adminBrowser(p.t, hooksManager);
    const other = await groupWithAdmin(p.root, ['webhook.manage']);
    const placed = await p.refused(
      () => browser.post('/administrators', { username: uniqueUsername('hook'), role_group_id: other.role_id }),
      403,
      'permission_not_held',
    );
    expect(placed.body.message).toMatch(/webhook\.manage for your own role group only/);
    await p.refused(() => browser.post(`/administrators/${other.id}/password-reset`), 403, 'permission_not_held');
    // In its own group it may.
    await browser
      .post('/administrators', { username: uniqueUsername('hook'), role_group_id: hooksManager.role_id })
      .expect(200);
  });

  it("refuses to reset, disable or enable a stronger administrator's account, which keeps its password", async () => {
    const { browser } = await manager();
    const stronger = await groupWithAdmin(p.root, ['access.manage', 'audit.read']);
    const reset = await p.refused(
      () => browser.post(`/administrators/${stronger.id}/password-reset`),
      403,
      'permission_not_held',
    );
    expect(reset.body.message).toMatch(/audit\.read/);
    expect(reset.body.data.password).toBeUndefined();
    await p.refused(() => browser.post(`/administrators/${stronger.id}/disable`), 403, 'permission_not_held');
    expect((await tryLogin(p.t, stronger)).status).toBe(200);
  });

  it('keeps a sockpuppet from enabling its creator again once a super administrator disabled it', async () => {
    const creator = await manager();
    const created = await creator.browser
      .post('/administrators', { username: uniqueUsername('sock'), role_group_id: await groupOf(creator.id) })
      .expect(200);
    const { username, password } = created.body.data;
    const sockpuppet = await adminBrowser(p.t, { username, password: await ownPasswordFor(p.t, username, password) });
    await p.root.post(`/administrators/${creator.id}/disable`).expect(200);
    await p.refused(() => sockpuppet.post(`/administrators/${creator.id}/enable`), 403, 'super_admin_only');
    expect((await listed('/administrators')).find((a) => a.id === creator.id)).toMatchObject({ enabled: false });
  });

  it('lets an administrator act on a peer whose permissions it holds, never on itself', async () => {
    const { id, browser } = await manager();
    const peer = await groupWithAdmin(p.root, ['access.manage']);
    await browser.post(`/administrators/${peer.id}/disable`).expect(200);
    await browser.post(`/administrators/${peer.id}/enable`).expect(200);
    await browser.post(`/administrators/${peer.id}/password-reset`).expect(200);
    await p.refused(() => browser.post(`/administrators/${id}/enable`), 409, 'own_account');
  });
});

async function groupOf(admin_id: number): Promise<number> {
  const admins = (await p.root.get('/administrators').expect(200)).body.data.list as { id: number; role_id: number }[];
  return admins.find((a) => a.id === admin_id)!.role_id;
}
