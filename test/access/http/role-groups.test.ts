import { auditExport } from '../../support/audit-export';
import { accessPlatform, adminBrowser, groupWithAdmin } from './access-clients';

const p = accessPlatform();

describe('role groups over the API', () => {
  it('defines a group with permissions from the registry, lists it, disables and enables it', async () => {
    const created = await p.root
      .post('/role-groups', { name: 'Reviewers', permissions: ['credential.review', 'audit.read'] })
      .expect(200);
    const group = created.body.data;
    expect(group).toEqual({
      id: expect.any(Number),
      name: 'Reviewers',
      permissions: ['credential.review', 'audit.read'],
      enabled: true,
    });

    const listed = await p.root.get('/role-groups').expect(200);
    expect(listed.body.data.list).toContainEqual(group);

    const disabled = await p.root.post(`/role-groups/${group.id}/disable`).expect(200);
    expect(disabled.body.data.enabled).toBe(false);
    expect((await p.root.get('/role-groups')).body.data.list).toContainEqual({ ...group, enabled: false });
    await p.refused(() => p.root.post(`/role-groups/${group.id}/disable`), 422, 'role_group_already_disabled');

    const enabled = await p.root.post(`/role-groups/${group.id}/enable`).expect(200);
    expect(enabled.body.data).toEqual(group);
  });

  it('lists every permission of the registry with what it allows, access.manage among them', async () => {
    const res = await p.root.get('/permissions').expect(200);
    expect(res.body.data.list.map((p: { name: string }) => p.name)).toEqual([
      'addon.view',
      'addon.manage',
      'credential.review',
      'audit.read',
      'webhook.manage',
      'access.manage',
    ]);
    expect(res.body.data.list).toContainEqual({
      name: 'access.manage',
      description: expect.stringMatching(/role groups and administrators/),
    });
  });

  it('refuses a permission no slice registered, with one stable reason, and defines nothing', async () => {
    const res = await p.refused(
      () => p.root.post('/role-groups', { name: 'Root', permissions: ['addon.view', 'p.root.everything'] }),
      422,
      'unknown_permission',
    );
    expect(res.body.message).toContain('p.root.everything');
  });

  it('refuses a blank name, a missing field and an unknown field', async () => {
    await p.refused(() => p.root.post('/role-groups', { name: '  ', permissions: [] }), 422, 'invalid_role_group_name');
    await p.refused(() => p.root.post('/role-groups', { name: 'No list' }), 422, 'validation_failed');
    await p.refused(
      () => p.root.post('/role-groups', { name: 'Extra', permissions: [], super: true }),
      422,
      'validation_failed',
    );
  });

  it('answers 404 for a group that does not exist, 422 for an id that is none', async () => {
    await p.refused(() => p.root.post('/role-groups/9999/disable'), 404, 'role_group_not_found');
    await p.refused(() => p.root.post('/role-groups/abc/enable'), 422, 'invalid_path_parameter');
  });

  it('refuses malformed JSON and a wrong CSRF token, changing nothing', async () => {
    await p.refused(
      () =>
        p.root.client
          .post('/api/v1/role-groups')
          .set('X-CSRF-Token', p.root.token)
          .set('Content-Type', 'application/json')
          .send('{"name": "x",'),
      422,
      'malformed_json',
    );
    await p.refused(
      () =>
        p.root.client
          .post('/api/v1/role-groups')
          .set('X-CSRF-Token', 'forged')
          .send({ name: 'Forged', permissions: [] }),
      419,
      'csrf_token_invalid',
    );
  });

  it('refuses an administrator without access.manage (403), and one logged in nowhere (401)', async () => {
    const operator = await groupWithAdmin(p.root, ['addon.view']);
    const asOperator = await adminBrowser(p.t, operator);
    await p.refused(() => asOperator.get('/role-groups'), 403, 'permission_denied');
    await p.refused(
      () => asOperator.post('/role-groups', { name: 'Mine', permissions: ['access.manage'] }),
      403,
      'permission_denied',
    );
    await p.refused(() => asOperator.post(`/role-groups/${operator.role_id}/disable`), 403, 'permission_denied');
    await p.refused(() => p.t.client().get('/api/v1/role-groups'), 401, 'admin_not_logged_in');
  });

  it("takes a disabled group's permissions from its administrators at their next request", async () => {
    const manager = await groupWithAdmin(p.root, ['access.manage', 'addon.view']);
    const asManager = await adminBrowser(p.t, manager);
    await asManager.get('/role-groups').expect(200);
    await p.root.post(`/role-groups/${manager.role_id}/disable`).expect(200);
    await p.refused(() => asManager.get('/role-groups'), 403, 'role_group_disabled');
    await p.root.post(`/role-groups/${manager.role_id}/enable`).expect(200);
    await asManager.get('/role-groups').expect(200);
  });

  it('tells the audit export who defined and disabled a group, in words', async () => {
    const { body } = await p.root.post('/role-groups', { name: 'Told', permissions: ['audit.read'] }).expect(200);
    await p.root.post(`/role-groups/${body.data.id}/disable`).expect(200);
    const ours = (await auditExport(p.root)).filter((e) => e.data?.role_id === body.data.id);
    expect(ours.map((e) => [e.type, e.actor?.kind, e.actor?.username])).toEqual([
      ['RoleGroupDefined', 'admin', 'admin'],
      ['RoleGroupDisabled', 'admin', 'admin'],
    ]);
    expect(ours[0]!.summary).toBe(`defined the role group ${body.data.id} "Told" with the permissions audit.read`);
    expect(ours[1]!.summary).toMatch(/^disabled role group \d+: its administrators lost its permissions$/);
  });
});

describe('role group names (docs/administrators.md, "Names")', () => {
  it("refuses a name that reads like another group's, a homoglyph or a case away, defining nothing", async () => {
    // Auditors is seeded; "Аuditors" starts with a Cyrillic А.
    const homoglyph = await p.refused(
      () => p.root.post('/role-groups', { name: '\u0410uditors', permissions: [] }),
      409,
      'role_group_name_taken',
    );
    expect(homoglyph.body.message).toContain('"Auditors"');
    await p.refused(
      () => p.root.post('/role-groups', { name: 'auditors', permissions: [] }),
      409,
      'role_group_name_taken',
    );
  });

  it('refuses a zero-width space in a name, and keeps a fullwidth name as its NFKC form', async () => {
    await p.refused(
      () => p.root.post('/role-groups', { name: 'Audi\u200btors', permissions: [] }),
      422,
      'invalid_role_group_name',
    );
    const created = await p.root.post('/role-groups', { name: 'Ｂｉｌｌｉｎｇ', permissions: [] }).expect(200);
    expect(created.body.data.name).toBe('Billing');
  });
});
