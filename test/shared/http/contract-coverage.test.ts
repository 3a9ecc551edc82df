import { openApiPath } from '../../../src/shared/http/openapi';
import { textOf } from '../../support/audit-export';
import { ContractChecker } from '../../support/contract';
import { activePartner, openCall, rotate } from '../../support/credentials';
import { ADMIN_PASSWORD, csrfOf, TestPlatform } from '../../support/platform';
import { GITHUB_TEST_VECTOR, postScanningReport, scanningKeysFile } from '../../support/secret-scanning';
import { mailedToken, Sink, startWithMail, stopWithMail } from '../../member/mailed-links';
import { walkSignInFactors } from './sign-in-factors-walk';

const API = '/api/v1';
/** The passkeys' relying party: the origin the software authenticator signs for. */
const ORIGIN = 'https://platform.example';

/**
 * Every operation of the contract answered successfully at least once, each answer judged against
 * its response schema by the checker every test platform carries (test/support/contract.ts). A new
 * endpoint fails this test until the walk below calls it.
 */
describe('every operation of the contract, called for real', () => {
  let t: TestPlatform;
  // The mailed links (a member's reset and e-mail confirmation, an administrator's invitation) are followed from here.
  let sink: Sink;
  beforeAll(async () => {
    ({ sink, t } = await startWithMail({
      WEBHOOK_ALLOW_PRIVATE: true,
      AUDIT_CHECKPOINT_SECONDS: 0.1,
      SECRET_SCANNING_KEYS_FILE: scanningKeysFile(),
      PUBLIC_URL: ORIGIN,
      COOKIE_SECURE: false,
    }));
  });
  afterAll(() => stopWithMail({ sink, t }));

  it('answers each one with a 2xx that matches the contract', async () => {
    const p = await activePartner(t, ['addons.read', 'member-groups.read']);
    const { admin, adminToken, developer, member } = p;
    const write = (client: typeof admin, path: string, token: string, body: object = {}) =>
      client.post(`${API}${path}`).set('X-CSRF-Token', token).send(body).expect(200);

    await t.client().get(`${API}/livez`).expect(200);
    await t.client().get(`${API}/readyz`).expect(200);
    await admin.get(`${API}/health`).expect(200);
    await t.client().get(API).expect(200);
    await t.client().get(`${API}/admin/sso`).expect(200);
    // Single sign-on is off here: its browser routes answer a page saying so, as the contract says.
    expect((await t.client().get(`${API}/admin/sso/login`).expect(404)).text).toContain('Single sign-on is off');
    await developer.get(`${API}/developer/dashboard`).expect(200);
    await developer.get(`${API}/developer/scopes`).expect(200);
    await rotate(p, { grace_seconds: 60 });
    const key = await rotate(p);
    await openCall(t, '/open/member-groups', p.apiid, key).expect(200);
    await openCall(t, '/open/addons', p.apiid, key).expect(200);

    await admin.get(`${API}/credentials?status=active`).expect(200);
    await admin.get(`${API}/scope-requests`).expect(200);
    await write(admin, `/credentials/${member.id}/scopes/addons.read/revoke`, adminToken, { reason: 'audit' });
    await write(admin, '/credentials/leaks', adminToken, { token: 'sk_found_in_a_ticket' });
    const { payload, identifier, signature } = GITHUB_TEST_VECTOR;
    await postScanningReport(t, payload, identifier, signature).expect(200);
    await write(admin, `/credentials/${member.id}/revoke`, adminToken, { reason: 'offboarded' });
    await admin.get(`${API}/openapi`).expect(200);
    await admin.get(`${API}/credentials/${member.id}/history`).expect(200);
    await admin.get(`${API}/audit/members?apiid=${p.apiid}`).expect(200);
    await admin.get(`${API}/audit/search?type=CredentialApproved&limit=2`).expect(200);
    await admin.get(`${API}/credentials/${member.id}/history?as_of=${new Date().toISOString()}`).expect(200);
    const exported = await admin.get(`${API}/audit/events?limit=5`).buffer(true).parse(textOf);
    expect(exported.status).toBe(200);
    expect(t.contractProblems).toEqual([]);
    const checker = new ContractChecker(t.platform.endpoints);
    expect(
      checker.problems('GET', '/audit/events', 200, String(exported.headers['content-type']), exported.body),
    ).toEqual([]);
    await admin.get(`${API}/audit/key`).expect(200);
    // The first event of the log is in the first checkpoint, signed a moment after it.
    const firstId = (JSON.parse((exported.body as string).split('\n')[0]!) as { id: string }).id;
    for (let i = 0; i < 50 && (await admin.get(`${API}/audit/proof?event=${firstId}`)).status !== 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const size = (await admin.get(`${API}/audit/proof?event=${firstId}`).expect(200)).body.data.checkpoint.split(
      '\n',
    )[1] as string;
    await admin.get(`${API}/audit/checkpoint`).expect(200);
    await admin.get(`${API}/audit/consistency?from=${size}&to=${size}`).expect(200);

    // A second member: rejected, then applying again, then approved and its scopes decided.
    const other = t.client();
    const token = (await other.get(`${API}/developer/session`)).body.data.csrf_token as string;
    const registered = await write(other, '/developer/register', token, {
      username: `cov${Date.now().toString(36)}`,
      password: 'secret1',
      email: 'c@example.com',
    });
    const memberToken = (await other.get(`${API}/developer/session`)).body.data.csrf_token as string;
    const id = registered.body.data.id as number;
    await write(other, '/developer/credential', memberToken);
    await write(admin, `/credentials/${id}/reject`, adminToken, { reason: 'incomplete' });
    await write(other, '/developer/credential', memberToken);
    await write(admin, `/credentials/${id}/approve`, adminToken, { expires_in_days: 30 });
    const claimed = await write(other, '/developer/claim', memberToken);
    await write(other, '/developer/scopes', memberToken, {
      scopes: ['addons.read', 'member-groups.read'],
      reason: 'sync',
    });
    await write(admin, `/credentials/${id}/scopes/addons.read/approve`, adminToken);
    await write(admin, `/credentials/${id}/scopes/member-groups.read/reject`, adminToken, { reason: 'not needed' });
    const partner = { apiid: claimed.body.data.apiid as string, apikey: claimed.body.data.apikey as string };
    // Decisions in bulk (each item's refusal is in its result), and an approval rule defined, listed and disabled.
    await write(admin, '/credentials/decisions', adminToken, { items: [{ member_id: id, decision: 'approve' }] });
    await write(admin, '/scope-requests/decisions', adminToken, {
      items: [{ member_id: id, scope: 'addons.read', decision: 'approve' }],
    });
    const rule = await write(admin, '/approval-rules', adminToken, {
      name: 'Coverage',
      applies_to: 'credential',
      who: 'email_domain',
      email_domain: 'nobody.example',
    });
    await admin.get(`${API}/approval-rules`).expect(200);
    await write(admin, `/approval-rules/${rule.body.data.id as string}/disable`, adminToken);
    await write(other, '/developer/logout', memberToken);
    const again = (await other.get(`${API}/developer/session`)).body.data.csrf_token as string;
    await write(other, '/developer/login', again, { username: registered.body.data.username, password: 'secret1' });
    // The application center, on the shipped uptime_monitor sample.
    const roles = { checks: { view: [1, 2], manage: [1] }, incidents: { view: [1], manage: [] } };
    for (const path of ['/context', '/roles', '/addons', '/addons/uptime_monitor/access'])
      await admin.get(`${API}${path}`).expect(200);
    await write(admin, '/addons/uptime_monitor/actions/install', adminToken, { page_roles: roles });
    await admin
      .put(`${API}/addons/uptime_monitor/access`)
      .set('X-CSRF-Token', adminToken)
      .send({ page_roles: roles })
      .expect(200);
    await admin.get(`${API}/addons/uptime_monitor/pages`).expect(200);
    await write(admin, '/addons/uptime_monitor/actions/menu', adminToken, { show_menu: false });
    const listed = await openCall(t, '/open/addons', partner.apiid, partner.apikey).expect(200);
    expect(listed.body.data.list).toEqual([expect.objectContaining({ key: 'uptime_monitor', version: '0.9.2' })]);
    await other.get(`${API}/developer/usage`).expect(200);
    await write(other, '/developer/extension', await csrfOf(other), { expires_in_days: 60, reason: 'longer project' });
    await write(admin, `/credentials/${id}/extension/reject`, adminToken, { reason: 'not now' });
    await write(other, '/developer/extension', await csrfOf(other), { expires_in_days: 60, reason: 'longer project' });
    await write(admin, `/credentials/${id}/extension/approve`, adminToken);
    await admin.get(`${API}/credentials/${id}/usage`).expect(200);

    // The decisions' mails went through the outbox: listed once sent, and one sent again.
    let mails: { id: string }[] = [];
    for (let i = 0; i < 50 && mails.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mails = (await admin.get(`${API}/mails?status=delivered`).expect(200)).body.data.list;
    }
    await write(admin, `/mails/${encodeURIComponent(mails[0]!.id)}/retry`, adminToken);

    // Webhooks: one hears of a decision, which the notifier turns into a delivery (to a closed port: it fails).
    const hook = await write(admin, '/webhooks', adminToken, {
      url: 'http://127.0.0.1:9/hook',
      events: ['credential.revoked'],
    });
    const hookId = hook.body.data.id as string;
    await admin.get(`${API}/webhooks`).expect(200);
    await write(admin, `/credentials/${id}/revoke`, adminToken, { reason: 'offboarded' });
    let deliveries: { id: string }[] = [];
    for (let i = 0; i < 50 && deliveries.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      deliveries = (await admin.get(`${API}/webhooks/${hookId}/deliveries`).expect(200)).body.data.list;
    }
    await write(admin, `/webhooks/${hookId}/deliveries/${deliveries[0]!.id}/retry`, adminToken);
    await write(admin, `/webhooks/${hookId}/rotate-secret`, adminToken);
    // A test send to the closed port: answered (not delivered), with its exchange, as the contract says.
    await write(admin, `/webhooks/${hookId}/test`, adminToken);
    await admin
      .put(`${API}/webhooks/${hookId}`)
      .set('X-CSRF-Token', adminToken)
      .send({ url: 'http://127.0.0.1:9/moved', events: ['credential.revoked', 'credential.approved'] })
      .expect(200);
    await admin.delete(`${API}/webhooks/${hookId}`).set('X-CSRF-Token', adminToken).expect(200);
    // The developer's own webhooks, and their recent calls.
    const devToken = await csrfOf(other);
    const own = await write(other, '/developer/webhooks', devToken, {
      url: 'http://127.0.0.1:9/own',
      events: ['credential.revoked'],
    });
    const ownId = own.body.data.id as string;
    for (const path of [
      '/developer/webhooks',
      `/developer/webhooks/${ownId}`,
      `/developer/webhooks/${ownId}/deliveries`,
    ])
      await other.get(`${API}${path}`).expect(200);
    await write(other, `/developer/webhooks/${ownId}/rotate-secret`, devToken);
    await write(other, `/developer/webhooks/${ownId}/test`, devToken);
    await other.delete(`${API}/developer/webhooks/${ownId}`).set('X-CSRF-Token', devToken).expect(200);
    await other.get(`${API}/developer/calls`).expect(200);
    // Role groups and administrators (access.manage).
    for (const path of ['/permissions', '/role-groups', '/administrators'])
      await admin.get(`${API}${path}`).expect(200);
    const group = await write(admin, '/role-groups', adminToken, { name: 'Coverage', permissions: ['addon.view'] });
    const groupId = group.body.data.id as number;
    await write(admin, `/role-groups/${groupId}/disable`, adminToken);
    await write(admin, `/role-groups/${groupId}/enable`, adminToken);
    const operator = await write(admin, '/administrators', adminToken, {
      username: `op${Date.now().toString(36)}`,
      role_group_id: groupId,
    });
    const operatorId = operator.body.data.id as number;
    await write(admin, `/administrators/${operatorId}/disable`, adminToken);
    await write(admin, `/administrators/${operatorId}/enable`, adminToken);
    await write(admin, `/administrators/${operatorId}/password-reset`, adminToken);
    // The first member, who forgot their password, given a one-time one (without mail, the only way); their sessions end.
    await write(admin, `/members/${member.id}/password-reset`, adminToken);
    // Given an address while the service sends mail, an administrator is invited: the mailed link sets the password.
    await write(admin, '/administrators', adminToken, {
      username: `in${Date.now().toString(36)}`,
      role_group_id: groupId,
      email: 'invited@example.com',
    });
    const invitee = t.client();
    await write(invitee, '/admin/invitation/accept', await csrfOf(invitee), {
      token: (await mailedToken(sink, 'invited@example.com')).token,
      password: 'invited-secret',
    });
    await write(admin, '/admin/password', adminToken, {
      current_password: ADMIN_PASSWORD,
      new_password: 'admin-secret-2',
    });
    await write(admin, '/admin/logout', adminToken);

    // The member's own account, then a forgotten password reset through the mailed link.
    const username = registered.body.data.username as string;
    await other.get(`${API}/developer/account`).expect(200);
    await other
      .put(`${API}/developer/account`)
      .set('X-CSRF-Token', await csrfOf(other))
      .send({ nickname: 'Cov', email: 'c2@example.com', current_password: 'secret1' })
      .expect(200);
    const confirming = t.client();
    await write(confirming, '/developer/account/confirm-email', await csrfOf(confirming), {
      token: (await mailedToken(sink, 'c2@example.com')).token,
    });
    await write(other, '/developer/password', await csrfOf(other), {
      current_password: 'secret1',
      new_password: 'secret2',
    });
    await write(other, '/developer/sessions/end-others', await csrfOf(other));
    await write(other, '/developer/account/acknowledge-reset', await csrfOf(other));
    const forgetful = t.client();
    await forgetful.get(`${API}/developer/password-reset`).expect(200);
    await write(forgetful, '/developer/password-reset', await csrfOf(forgetful), { login: username });
    const resetLink = await mailedToken(sink, 'c2@example.com', 2);
    await write(forgetful, '/developer/password-reset/confirm', await csrfOf(forgetful), {
      token: resetLink.token,
      password: 'secret3',
    });
    // The replaced address puts itself back with the notice mailed to it, a password reset later still.
    await write(forgetful, '/developer/account/restore-email', await csrfOf(forgetful), {
      token: (await mailedToken(sink, 'c@example.com')).token,
    });

    await walkSignInFactors(t, ORIGIN, 'admin-secret-2');

    const succeeded = new Set(t.answered.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.operation));
    // The browser's single sign-on routes succeed with a 302 through a provider: test/access/sso/sso.test.ts walks them.
    const operations = t.platform.endpoints
      .filter((e) => !e.redirects)
      .map((e) => `${e.method} ${openApiPath(e.path)}`);
    expect(operations.filter((o) => !succeeded.has(o))).toEqual([]);
    expect(t.contractProblems).toEqual([]);
    // Some sixty calls, several hashing a password: on a busy shared machine this takes longer than the default 20 s.
  }, 60_000);
});
