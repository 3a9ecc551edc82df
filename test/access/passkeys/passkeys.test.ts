import request from 'supertest';
import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from 'nid-webauthn-emulator';
import { csrfOf, expectRefusal, registerMember, startPlatform, TestPlatform } from '../../support/platform';
import { adminBrowser, AdminBrowser } from '../http/access-clients';

/**
 * Passkeys over the API, signed by nid-webauthn-emulator: a FIDO2 authenticator and the browser's
 * WebAuthn calls in software, written by others from the specifications, so the ceremonies are
 * checked against an authenticator this project did not write.
 */
const API = '/api/v1';
/** An authenticator of its own: the emulator's default one keeps its credentials in a store every instance shares. */
const newAuthenticator = () =>
  new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
const ORIGIN = 'https://platform.example';
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ PUBLIC_URL: ORIGIN, COOKIE_SECURE: false });
});
afterAll(() => t?.close());

/** The token first: a fresh agent's request takes the cookies the agent holds when it is made. */
async function post(client: request.Agent, path: string, body: object = {}) {
  const token = await csrfOf(client);
  return client.post(`${API}${path}`).set('X-CSRF-Token', token).send(body);
}

/** Asks for options on `prefix`, has the authenticator create a passkey for `origin`, and posts it under `name`. */
async function addPasskey(client: request.Agent, prefix: string, authenticator: WebAuthnEmulator, name: string) {
  const options = await post(client, `${prefix}/options`);
  expect(options.status).toBe(200);
  const response = authenticator.createJSON(ORIGIN, options.body.data as PublicKeyCredentialCreationOptionsJSON);
  return post(client, prefix, { name, response });
}

/** A fresh browser's passkey sign-in as an administrator: the options asked for, then signed with `sign`. */
async function passkeySignIn(authenticator: WebAuthnEmulator, client = t.client(), origin = ORIGIN) {
  const options = await post(client, '/admin/login/passkey/options');
  expect(options.status).toBe(200);
  const response = authenticator.getJSON(origin, options.body.data as PublicKeyCredentialRequestOptionsJSON);
  return { client, response, answer: await post(client, '/admin/login/passkey', { response }) };
}

const eventsOfType = async (type: string) => (await t.allEvents()).filter((e) => e.type === type);

describe("an administrator's passkey", () => {
  let root: AdminBrowser;
  const authenticator = newAuthenticator();
  beforeAll(async () => {
    root = await adminBrowser(t);
  });

  it('is added under a name, listed, and signs the administrator in without a password', async () => {
    const added = await addPasskey(root.client, '/admin/passkeys', authenticator, 'work laptop');
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ id: expect.any(String), name: 'work laptop' });
    const listed = await root.get('/admin/passkeys').expect(200);
    expect(listed.body.data).toEqual([added.body.data]);
    const admins = (await root.get('/administrators').expect(200)).body.data.list;
    expect(admins[0]).toMatchObject({ username: 'admin', second_factors: { passkeys: 1, totp: false } });
    const [event] = await eventsOfType('PasskeyAdded');
    expect(event!.metadata.actor).toMatchObject({ kind: 'admin', id: 1 });
    expect(event!.data).toMatchObject({ side: 'admin', account_id: 1, name: 'work laptop' });
    expect(String(event!.data.public_key).length).toBeGreaterThan(40);

    const { client, answer } = await passkeySignIn(authenticator);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ id: 1, username: 'admin', is_super: true, role_id: null });
    // A new session id and a new CSRF token, as a password sign-in gives.
    expect(String(answer.headers['set-cookie'])).toContain('PHPSESSID=');
    const context = await client.get(`${API}/context`).expect(200);
    expect(context.body.data.account).toMatchObject({ username: 'admin' });
    const [used] = await eventsOfType('PasskeyUsed');
    expect(used!.metadata.actor).toMatchObject({ kind: 'admin', id: 1 });
    expect(used!.data).toMatchObject({ purpose: 'sign_in', name: 'work laptop' });
    expect(await eventsOfType('AdministratorSignedIn')).not.toHaveLength(0);
  });

  it('refuses the same signed answer a second time (a replay): the challenge was taken', async () => {
    const { client, response } = await passkeySignIn(authenticator);
    await expectRefusal(
      t,
      async () => post(client, '/admin/login/passkey', { response }),
      409,
      'passkey_challenge_missing',
    );
    // Nor does it pass for the answer to a new challenge.
    await post(client, '/admin/login/passkey/options');
    await expectRefusal(t, async () => post(client, '/admin/login/passkey', { response }), 401, 'passkey_not_accepted');
  });

  it('takes one of two requests racing with the same signed answer, and records one use', async () => {
    const client = t.client();
    const options = await post(client, '/admin/login/passkey/options');
    const response = authenticator.getJSON(ORIGIN, options.body.data as PublicKeyCredentialRequestOptionsJSON);
    const token = await csrfOf(client);
    const before = (await eventsOfType('PasskeyUsed')).length;
    const send = () => client.post(`${API}/admin/login/passkey`).set('X-CSRF-Token', token).send({ response });
    const answers = await Promise.all([send(), send()]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.find((a) => a.status !== 200)!.status).toBeGreaterThanOrEqual(400);
    expect(await eventsOfType('PasskeyUsed')).toHaveLength(before + 1);
  });

  it('refuses an answer signed for another origin, even one under the same site', async () => {
    await expectRefusal(
      t,
      async () => (await passkeySignIn(authenticator, t.client(), 'https://console.platform.example')).answer,
      401,
      'passkey_not_accepted',
    );
    const other = newAuthenticator();
    const options = await post(root.client, '/admin/passkeys/options');
    const response = other.createJSON('https://login.platform.example', options.body.data);
    const refused = await expectRefusal(
      t,
      async () => post(root.client, '/admin/passkeys', { name: 'phished', response }),
      422,
      'passkey_not_verified',
    );
    expect(refused.body.message).toContain('origin');
  });

  it('refuses a passkey nobody here holds, and counts it in the login limits', async () => {
    const stranger = newAuthenticator();
    // A passkey made for this site on another service's account: its user handle names nobody here.
    const made = stranger.createJSON(ORIGIN, {
      rp: { id: 'platform.example', name: 'elsewhere' },
      user: { id: Buffer.from('admin-1').toString('base64url'), name: 'admin', displayName: 'admin' },
      challenge: Buffer.from('a challenge of elsewhere').toString('base64url'),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    expect(made.id).toBeTruthy();
    const { answer } = await passkeySignIn(stranger);
    expect(answer.status).toBe(401);
    expect(answer.body.data.error).toBe('passkey_not_accepted');
    expect(answer.headers['ratelimit-remaining'] ?? answer.headers['x-ratelimit-remaining']).toBeDefined();
  });

  it('is removed by its owner, and then signs nobody in', async () => {
    const [listed] = (await root.get('/admin/passkeys').expect(200)).body.data;
    await root.client
      .delete(`${API}/admin/passkeys/${listed.id}`)
      .set('X-CSRF-Token', await csrfOf(root.client))
      .expect(200);
    expect((await root.get('/admin/passkeys').expect(200)).body.data).toEqual([]);
    const [removed] = await eventsOfType('PasskeyRemoved');
    expect(removed!.metadata.actor).toMatchObject({ kind: 'admin', id: 1 });
    const { answer } = await passkeySignIn(authenticator);
    expect(answer.status).toBe(401);
    await expectRefusal(
      t,
      async () =>
        root.client.delete(`${API}/admin/passkeys/${listed.id}`).set('X-CSRF-Token', await csrfOf(root.client)),
      404,
      'passkey_not_found',
    );
  });
});

describe("a member's passkey", () => {
  it('is added, listed and removed by the member, whose events name them', async () => {
    const client = t.client();
    const member = await registerMember(client);
    const added = await addPasskey(client, '/developer/passkeys', newAuthenticator(), 'phone');
    expect(added.status).toBe(200);
    const listed = await client.get(`${API}/developer/passkeys`).expect(200);
    expect(listed.body.data).toEqual([{ id: added.body.data.id, name: 'phone' }]);
    const event = (await eventsOfType('PasskeyAdded')).find((e) => e.data.side === 'member');
    expect(event!.metadata.actor).toMatchObject({ kind: 'member', id: member.id });
    await client
      .delete(`${API}/developer/passkeys/${added.body.data.id}`)
      .set('X-CSRF-Token', await csrfOf(client))
      .expect(200);
    expect((await client.get(`${API}/developer/passkeys`).expect(200)).body.data).toEqual([]);
  });

  it('is refused without options asked for first, and without a name', async () => {
    const client = t.client();
    await registerMember(client);
    const response = newAuthenticator().createJSON(ORIGIN, {
      rp: { id: 'platform.example', name: 'x' },
      user: { id: 'bWVtYmVyLTE', name: 'x', displayName: 'x' },
      challenge: 'bm90LWFza2VkLWZvcg',
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    });
    await expectRefusal(
      t,
      async () => post(client, '/developer/passkeys', { name: 'x', response }),
      409,
      'passkey_challenge_missing',
    );
    await expectRefusal(
      t,
      async () => post(client, '/developer/passkeys', { name: ' ', response }),
      422,
      'validation_failed',
    );
  });
});

describe('a passkey as the second factor of a password sign-in', () => {
  it("holds a member's password sign-in pending until one of their passkeys signs, then signs them in", async () => {
    const client = t.client();
    const member = await registerMember(client);
    const authenticator = newAuthenticator();
    expect((await addPasskey(client, '/developer/passkeys', authenticator, 'phone')).status).toBe(200);
    await post(client, '/developer/logout');
    const login = await post(client, '/developer/login', { username: member.username, password: member.password });
    expect(login.body.data).toMatchObject({ second_factor_required: true });
    await client.get(`${API}/developer/passkeys`).expect(403);
    const options = await post(client, '/developer/login/second-factor/passkey/options');
    expect(options.status).toBe(200);
    const response = authenticator.getJSON(ORIGIN, options.body.data as PublicKeyCredentialRequestOptionsJSON);
    const done = await post(client, '/developer/login/second-factor/passkey', { response });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id: member.id, username: member.username });
    await client.get(`${API}/developer/passkeys`).expect(200);
    const used = (await eventsOfType('PasskeyUsed')).find((e) => e.data.side === 'member');
    expect(used!.data).toMatchObject({ purpose: 'second_factor', account_id: member.id });
    expect(used!.metadata.actor).toMatchObject({ kind: 'member', id: member.id });
  });

  it('is refused where no sign-in awaits its second factor', async () => {
    const client = t.client();
    for (const side of ['developer', 'admin']) {
      await expectRefusal(
        t,
        async () => post(client, `/${side}/login/second-factor/passkey/options`),
        401,
        'no_pending_sign_in',
      );
      const response = {
        id: 'eA',
        rawId: 'eA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'eA', authenticatorData: 'eA', signature: 'eA' },
      };
      await expectRefusal(
        t,
        async () => post(client, `/${side}/login/second-factor/passkey`, { response }),
        401,
        'no_pending_sign_in',
      );
    }
  });
});
