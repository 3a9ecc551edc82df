import request from 'supertest';
import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from 'nid-webauthn-emulator';
import { csrfOf, registerMember, TestPlatform } from '../../support/platform';
import { codeAt, enrolTotp, passwordSignIn, secondFactor } from '../../support/totp';

const API = '/api/v1';
type Side = 'developer' | 'admin';

async function post(client: request.Agent, path: string, body: object = {}) {
  // The token first: an agent's request takes the cookies it holds when it is made.
  const token = await csrfOf(client);
  return client.post(`${API}${path}`).set('X-CSRF-Token', token).send(body).expect(200);
}

/** The account's passkey, made by a software authenticator (nid-webauthn-emulator) for `origin`. */
async function addPasskey(client: request.Agent, side: Side, origin: string) {
  const authenticator = new WebAuthnEmulator(
    new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }),
  );
  const options = await post(client, `/${side}/passkeys/options`);
  const response = authenticator.createJSON(origin, options.body.data as PublicKeyCredentialCreationOptionsJSON);
  const added = await post(client, `/${side}/passkeys`, { name: 'laptop', response });
  await client.get(`${API}/${side}/passkeys`).expect(200);
  return { authenticator, id: added.body.data.id as string };
}

/** Signs `path/options` with the authenticator, then posts the signature to `path`. */
async function signWithPasskey(client: request.Agent, authenticator: WebAuthnEmulator, origin: string, path: string) {
  const options = await post(client, `${path}/options`);
  const response = authenticator.getJSON(origin, options.body.data as PublicKeyCredentialRequestOptionsJSON);
  return post(client, path, { response });
}

/**
 * Every operation of an account's second factors, for one side: TOTP enrolled, a passkey added, a
 * sign-in completed with a code and one with the passkey, then both removed, so the account signs
 * in with its password alone again.
 */
async function walkSide(t: TestPlatform, side: Side, account: { username: string; password: string }, origin: string) {
  const signedIn = t.client();
  const first = await passwordSignIn(signedIn, `/${side}`, account);
  if (first.status !== 200) throw new Error(`${side} sign-in: ${first.status} ${JSON.stringify(first.body)}`);
  await signedIn.get(`${API}/${side}/2fa`).expect(200);
  const { secret, recovery_codes } = await enrolTotp(signedIn, `/${side}`);
  const passkey = await addPasskey(signedIn, side, origin);

  const byCode = t.client();
  await passwordSignIn(byCode, `/${side}`, account);
  expect((await secondFactor(byCode, `/${side}`, { code: await codeAt(secret) })).status).toBe(200);
  const byPasskey = t.client();
  await passwordSignIn(byPasskey, `/${side}`, account);
  await signWithPasskey(byPasskey, passkey.authenticator, origin, `/${side}/login/second-factor/passkey`);
  if (side === 'admin') await signWithPasskey(t.client(), passkey.authenticator, origin, '/admin/login/passkey');

  const token = await csrfOf(signedIn);
  await signedIn.delete(`${API}/${side}/passkeys/${passkey.id}`).set('X-CSRF-Token', token).expect(200);
  await signedIn
    .delete(`${API}/${side}/2fa`)
    .set('X-CSRF-Token', token)
    .send({ password: account.password, recovery_code: recovery_codes[0] })
    .expect(200);
}

/** The second-factor and passkey operations of a member and of the super administrator (signing in with `adminPassword`). */
export async function walkSignInFactors(t: TestPlatform, origin: string, adminPassword: string) {
  const member = await registerMember(t.client());
  await walkSide(t, 'developer', member, origin);
  await walkSide(t, 'admin', { username: 'admin', password: adminPassword }, origin);
}
