import { logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';

let t: TestPlatform;
beforeAll(async () => {
  // No provider is needed: OIDC_ONLY is about the password sign-in, and the provider is looked up at a single sign-on only.
  t = await startPlatform({
    OIDC_ISSUER_URL: 'http://127.0.0.1:9/',
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'secret',
    OIDC_DISPLAY_NAME: 'Corp SSO',
    OIDC_ONLY: 'true',
  });
});
afterAll(() => t.close());

async function passwordSignIn(username: string, password: string) {
  const client = t.client();
  const token = (await client.get(`${API}/admin/session`).expect(200)).body.data.csrf_token;
  return client.post(`${API}/admin/login`).set('X-CSRF-Token', token).send({ username, password });
}

describe('OIDC_ONLY=true: administrators sign in through the provider, but a break-glass super administrator', () => {
  it('tells the console that only super administrators may use a password', async () => {
    const res = await t.client().get(`${API}/admin/sso`).expect(200);
    expect(res.body.data).toEqual({ enabled: true, display_name: 'Corp SSO', password_sign_in: 'super_only' });
  });

  it('refuses the password of an administrator in a role group, and says to use single sign-on', async () => {
    const root = t.client();
    const token = await logInAdmin(root);
    const created = await root
      .post(`${API}/administrators`)
      .set('X-CSRF-Token', token)
      .send({ username: 'ops.person', role_group_id: 1 })
      .expect(200);
    const refused = await passwordSignIn('ops.person', created.body.data.password);
    expect(refused.status).toBe(403);
    expect(refused.body.data.error).toBe('password_sign_in_off');
    expect(refused.body.message).toContain('Sign in with Corp SSO');
    // A wrong password is told as any wrong password: the refusal above needs the right one.
    const wrong = await passwordSignIn('ops.person', 'not-the-password');
    expect(wrong.status).toBe(401);
  });

  it('answers a page saying the provider is unreachable when it is, not a 500', async () => {
    const res = await t.client().get(`${API}/admin/sso/login`);
    expect(res.status).toBe(503);
    expect(res.text).toContain('could not be asked how to sign in');
  });

  it('lets the super administrator sign in with its password', async () => {
    const client = t.client();
    await logInAdmin(client);
    await client.get(`${API}/credentials`).expect(200);
  });
});
