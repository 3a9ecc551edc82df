import { csrfOf, registerMember, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { enrolTotp, passwordSignIn } from '../../support/totp';
import { adminBrowser } from '../../access/http/access-clients';

describe('REQUIRE_SECOND_FACTOR', () => {
  let t: TestPlatform;
  afterEach(() => t?.close());

  it('everyone: a member without a factor can only enrol until it confirmed one', async () => {
    t = await startPlatform({ REQUIRE_SECOND_FACTOR: 'everyone' });
    const member = await registerMember(t.client());
    const client = t.client();
    const res = await passwordSignIn(client, '/developer', member);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ second_factor_required: false, second_factor_enrolment_required: true });
    const refused = await client.get('/api/v1/developer/dashboard').expect(403);
    expect(refused.body.data.error).toBe('second_factor_enrolment_required');
    expect(refused.body.message).toMatch(/2fa\/totp/);
    await client.get('/api/v1/developer/2fa').expect(200);
    await enrolTotp(client, '/developer');
    await client.get('/api/v1/developer/dashboard').expect(200);
    // Once enrolled, the next sign-in asks for the code.
    const again = await passwordSignIn(t.client(), '/developer', member);
    expect(again.body.data.second_factor_required).toBe(true);
  });

  it('access-managers: an administrator who can manage access must enrol; one who cannot is free; members are free', async () => {
    t = await startPlatform({ REQUIRE_SECOND_FACTOR: 'access-managers' });
    const member = await registerMember(t.client());
    const memberSignIn = await passwordSignIn(t.client(), '/developer', member);
    expect(memberSignIn.body.data.second_factor_enrolment_required).toBe(false);
    const superAdmin = t.client();
    const login = await passwordSignIn(superAdmin, '/admin', { username: 'admin', password: 'admin-secret' });
    expect(login.body.data.second_factor_enrolment_required).toBe(true);
    const refused = await superAdmin.get('/api/v1/administrators').expect(403);
    expect(refused.body.data.error).toBe('second_factor_enrolment_required');
    await enrolTotp(superAdmin, '/admin');
    const token = await csrfOf(superAdmin);
    const post = (path: string, body: object) =>
      superAdmin.post(`/api/v1${path}`).set('X-CSRF-Token', token).send(body).expect(200);
    const auditors = await post('/role-groups', {
      name: `Readers ${uniqueUsername('g')}`,
      permissions: ['audit.read'],
    });
    const username = uniqueUsername('reader');
    const created = await post('/administrators', { username, role_group_id: auditors.body.data.id });
    const reader = await passwordSignIn(t.client(), '/admin', { username, password: created.body.data.password });
    expect(reader.body.data.second_factor_enrolment_required).toBe(false);
    expect((await adminBrowser(t, { username, password: created.body.data.password })).token).toBeTruthy();
  });
});
