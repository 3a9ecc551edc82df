import request from 'supertest';
import { startPlatform, TestPlatform } from '../../support/platform';
import { adminBrowser } from '../http/access-clients';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URL, startProvider, TestProvider } from './test-provider';

const API = '/api/v1';

let provider: TestProvider;
let t: TestPlatform;
beforeAll(async () => {
  provider = await startProvider();
  t = await startPlatform({
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_REDIRECT_URL: REDIRECT_URL,
    OIDC_ROLE_GROUPS: 'platform-ops=Operators,platform-audit=Auditors',
    OIDC_SUPER_GROUP: 'platform-root',
    OIDC_DISPLAY_NAME: 'Test IdP',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** Starts a sign-in in `client`'s session and walks the provider as `sub`: the callback's query string. */
async function throughProvider(client: request.Agent, sub: string): Promise<string> {
  const login = await client.get(`${API}/admin/sso/login`).expect(302);
  const back = await provider.authorize(login.headers.location!, sub);
  return back.search.slice(1);
}

async function signIn(sub: string) {
  const client = t.client();
  const callback = await client.get(`${API}/admin/sso/callback?${await throughProvider(client, sub)}`);
  return { client, callback };
}

const adminOf = async (client: request.Agent) => ({
  admin: (await client.get(`${API}/context`).expect(200)).body.data.account,
});

describe('single sign-on for administrators through an OpenID provider', () => {
  it('tells the console it is on and under which name', async () => {
    const res = await t.client().get(`${API}/admin/sso`).expect(200);
    expect(res.body.data).toEqual({ enabled: true, display_name: 'Test IdP', password_sign_in: 'everyone' });
  });

  it('signs a new person in, creates the administrator and places it in the role group its claim maps to', async () => {
    await provider.setGroups('olivia.ops', ['platform-ops']);
    const { client, callback } = await signIn('olivia.ops');
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe('/ui/');
    const session = await adminOf(client);
    expect(session.admin).toMatchObject({ username: 'olivia.ops', is_super: false, role_id: 1 });
    // A permission of Operators works; one they lack does not.
    await client.get(`${API}/credentials`).expect(200);
    const events = await t.allEvents();
    const provisioned = events.filter((e) => e.type === 'AdministratorProvisioned');
    expect(provisioned).toHaveLength(1);
    expect(provisioned[0]!.metadata.actor.kind).toBe('sso');
    expect(provisioned[0]!.data).toMatchObject({ username: 'olivia.ops', role_id: 1, issuer: provider.issuer });
    // The administrators list tells it came from single sign-on.
    const root = await adminBrowser(t);
    const listed = (await root.get('/administrators').expect(200)).body.data.list as { username: string }[];
    expect(listed.find((a) => a.username === 'olivia.ops')).toMatchObject({ single_sign_on: true });
    expect(listed.find((a) => a.username === 'admin')).toMatchObject({ single_sign_on: false });
    // Both browser routes answered as the contract says (the platform's checker judged them; close() fails on a problem).
    const redirected = t.answered.filter((a) => a.status === 302).map((a) => a.operation);
    expect(redirected).toEqual(expect.arrayContaining(['GET /admin/sso/login', 'GET /admin/sso/callback']));
    expect(t.contractProblems).toEqual([]);
  });

  it('moves the administrator when its group changed between two sign-ins, with an event', async () => {
    await provider.setGroups('mover', ['platform-ops']);
    expect((await adminOf((await signIn('mover')).client)).admin.role_id).toBe(1);
    await provider.setGroups('mover', ['platform-audit']);
    const second = await signIn('mover');
    expect(second.callback.status).toBe(302);
    expect((await adminOf(second.client)).admin.role_id).toBe(2);
    const moves = (await t.allEvents()).filter((e) => e.type === 'AdministratorRoleGroupSet');
    expect(moves.map((e) => e.data)).toContainEqual(expect.objectContaining({ role_id: 2, is_super: false }));
    expect(moves.every((e) => e.metadata.actor.kind === 'sso')).toBe(true);
  });

  it('refuses a person no mapping covers with a page that says why, and creates nobody', async () => {
    await provider.setGroups('stranger', ['marketing']);
    const before = (await t.allEvents()).length;
    const { client, callback } = await signIn('stranger');
    expect(callback.status).toBe(403);
    expect(callback.headers['content-type']).toMatch(/text\/html/);
    expect(callback.text).toContain('names none of the groups');
    expect(callback.text).toContain('marketing');
    await client.get(`${API}/credentials`).expect(401);
    const after = await t.allEvents();
    expect(after.slice(before).filter((e) => e.type === 'AdministratorProvisioned')).toHaveLength(0);
  });

  it('never takes over an administrator created with a password, and a provisioned one has no password', async () => {
    await provider.setGroups('admin', ['platform-root']);
    const { client, callback } = await signIn('admin');
    expect(callback.status).toBe(403);
    expect(callback.text).toContain('exists already and was not created by this single sign-on');
    await client.get(`${API}/credentials`).expect(401);

    await provider.setGroups('no.password', ['platform-ops']);
    const provisioned = await signIn('no.password');
    expect(provisioned.callback.status).toBe(302);
    // It has no current password to give: changing one is refused as a wrong one, not a 500.
    const change = await provisioned.client
      .post(`${API}/admin/password`)
      .set('X-CSRF-Token', (await provisioned.client.get(`${API}/admin/session`)).body.data.csrf_token)
      .send({ current_password: 'a guess', new_password: 'a-new-password-1' });
    expect(change.status).toBe(422);
    expect(change.body.data.error).toBe('wrong_current_password');
    const other = t.client();
    const token = (await other.get(`${API}/admin/session`).expect(200)).body.data.csrf_token;
    const res = await other
      .post(`${API}/admin/login`)
      .set('X-CSRF-Token', token)
      .send({ username: 'no.password', password: 'anything at all' });
    expect(res.status).toBe(401);
  });

  it('refuses a forged state', async () => {
    await provider.setGroups('forger', ['platform-ops']);
    const client = t.client();
    const query = new URLSearchParams(await throughProvider(client, 'forger'));
    query.set('state', 'forged-by-an-attacker');
    const callback = await client.get(`${API}/admin/sso/callback?${query}`);
    expect(callback.status).toBe(401);
    expect(callback.text).toContain('state');
    await client.get(`${API}/credentials`).expect(401);
  });

  it('refuses a replayed code: two callbacks at once with the same code sign in once', async () => {
    await provider.setGroups('replayer', ['platform-ops']);
    const client = t.client();
    const query = await throughProvider(client, 'replayer');
    const cookie = (await client.get(`${API}/admin/sso`)).request.cookies;
    const send = () => request(t.server).get(`${API}/admin/sso/callback?${query}`).set('Cookie', cookie);
    const answers = await Promise.all([send(), send()]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(302);
    expect(statuses[1]).toBe(401);
    // And once answered, the same callback again is refused: the sign-in it belonged to is spent.
    const again = await send();
    expect(again.status).not.toBe(302);
  });

  it('refuses a callback no sign-in of this session started', async () => {
    const callback = await t.client().get(`${API}/admin/sso/callback?code=abc&state=def`);
    expect(callback.status).toBe(401);
    expect(callback.text).toContain('started no single sign-on');
  });
});
