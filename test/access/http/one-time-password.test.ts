import { expectRefusal, logIn, registerMember, uniqueUsername } from '../../support/platform';
import { accessPlatform, adminBrowser, ownPasswordFor } from './access-clients';

const files = accessPlatform();

/** An administrator created over the API, with the one-time password the creation answered. */
async function createdAdmin() {
  const group = await files.root
    .post('/role-groups', { name: `Group ${uniqueUsername('g')}`, permissions: ['webhook.manage'] })
    .expect(200);
  const username = uniqueUsername('otp');
  const created = await files.root.post('/administrators', { username, role_group_id: group.body.data.id }).expect(200);
  return { id: created.body.data.id as number, username, password: created.body.data.password as string };
}

describe('a session signed in with a one-time password', () => {
  it("an administrator's: the login says so, everything but changing it and signing out is refused 403 password_change_required, and changing it lifts that in this session", async () => {
    const admin = await createdAdmin();
    const client = files.t.client();
    const { body } = await client.get('/api/v1/admin/session').expect(200);
    const login = await client
      .post('/api/v1/admin/login')
      .set('X-CSRF-Token', body.data.csrf_token)
      .send({ username: admin.username, password: admin.password })
      .expect(200);
    expect(login.body.data.password_change_required).toBe(true);
    const browser = await adminBrowser(files.t, admin);
    const refused = await files.refused(() => browser.get('/webhooks'), 403, 'password_change_required');
    expect(refused.body.message).toMatch(/POST \/admin\/password/);
    await files.refused(() => browser.get('/context'), 403, 'password_change_required');
    await files.refused(
      () => browser.post('/webhooks', { url: 'https://example.com/hook', events: ['credential.approved'] }),
      403,
      'password_change_required',
    );
    // A wrong current password is still told as such, and lifts nothing.
    await files.refused(
      () => browser.post('/admin/password', { current_password: 'wrong', new_password: 'a-new-password-1' }),
      422,
      'wrong_current_password',
    );
    await files.refused(() => browser.get('/webhooks'), 403, 'password_change_required');
    await browser
      .post('/admin/password', { current_password: admin.password, new_password: 'own-password-1' })
      .expect(200);
    await browser.get('/webhooks').expect(200);
    // Signed in again with the password chosen: nothing is refused.
    const again = await adminBrowser(files.t, { username: admin.username, password: 'own-password-1' });
    await again.get('/webhooks').expect(200);
  });

  it('an administrator reset by another gets a one-time password again; signing out is allowed before changing it', async () => {
    const admin = await createdAdmin();
    const own = await ownPasswordFor(files.t, admin.username, admin.password);
    await adminBrowser(files.t, { username: admin.username, password: own }).then((b) =>
      b.get('/webhooks').expect(200),
    );
    const reset = await files.root.post(`/administrators/${admin.id}/password-reset`).expect(200);
    const browser = await adminBrowser(files.t, { username: admin.username, password: reset.body.data.password });
    await files.refused(() => browser.get('/webhooks'), 403, 'password_change_required');
    await browser.post('/admin/logout').expect(200);
  });

  it('the seeded administrator signs in with its configured password unrestricted', async () => {
    await files.root.get('/webhooks').expect(200);
    await files.root.get('/context').expect(200);
  });

  it("a member's, given by an administrator: refused until changed, then free; the change answers in words", async () => {
    const member = await registerMember(files.t.client());
    const reset = await files.root.post(`/members/${member.id}/password-reset`).expect(200);
    const browser = files.t.client();
    const token = await (async () => {
      const { body } = await browser.get('/api/v1/developer/session').expect(200);
      const login = await browser
        .post('/api/v1/developer/login')
        .set('X-CSRF-Token', body.data.csrf_token)
        .send({ username: member.username, password: reset.body.data.password })
        .expect(200);
      expect(login.body.data.password_change_required).toBe(true);
      return (await browser.get('/api/v1/developer/session').expect(200)).body.data.csrf_token as string;
    })();
    await expectRefusal(files.t, () => browser.get('/api/v1/developer/dashboard'), 403, 'password_change_required');
    await expectRefusal(
      files.t,
      () => browser.post('/api/v1/developer/credential').set('X-CSRF-Token', token).send({}),
      403,
      'password_change_required',
    );
    const changed = await browser
      .post('/api/v1/developer/password')
      .set('X-CSRF-Token', token)
      .send({ current_password: reset.body.data.password, new_password: 'my-own-password-1' })
      .expect(200);
    expect(changed.body.message).toBe('password changed; no other session was signed in');
    await browser.get('/api/v1/developer/dashboard').expect(200);
    // A member who chose their password signs in unrestricted.
    const other = files.t.client();
    await logIn(other, { username: member.username, password: 'my-own-password-1' });
    await other.get('/api/v1/developer/dashboard').expect(200);
  });
});
