import { generate } from 'otplib';
import request from 'supertest';
import { csrfOf } from './platform';

/**
 * The authenticator app's code `steps` 30-second steps from now, computed by otplib (not by the
 * service's code). Near a step's end it first waits for the next one, so that the service, a few
 * milliseconds later, reads the same step as the test.
 */
export async function codeAt(secret: string, steps = 0): Promise<string> {
  if (Date.now() % 30_000 > 28_000) await new Promise((resolve) => setTimeout(resolve, 2_500));
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** Enrols TOTP on a signed-in client (`base`: /developer or /admin): answers the seed and the recovery codes. */
export async function enrolTotp(client: request.Agent, base: '/developer' | '/admin') {
  // The token first: an agent's request takes the cookies it holds when it is made.
  const token = await csrfOf(client);
  const begun = await client.post(`/api/v1${base}/2fa/totp`).set('X-CSRF-Token', token).send({}).expect(200);
  const secret = begun.body.data.secret as string;
  const confirmed = await client
    .post(`/api/v1${base}/2fa/totp/confirm`)
    .set('X-CSRF-Token', token)
    .send({ code: await codeAt(secret, -1) })
    .expect(200);
  return {
    secret,
    otpauth_uri: begun.body.data.otpauth_uri as string,
    recovery_codes: confirmed.body.data.recovery_codes as string[],
  };
}

/** A password sign-in on a fresh client (`base`: /developer or /admin); answers the client and the answer. */
export async function passwordSignIn(
  client: request.Agent,
  base: '/developer' | '/admin',
  account: { username: string; password: string },
) {
  const token = await csrfOf(client);
  const res = await client
    .post(`/api/v1${base}/login`)
    .set('X-CSRF-Token', token)
    .send({ username: account.username, password: account.password });
  return res;
}

/** Sends the second factor of a pending sign-in. */
export async function secondFactor(client: request.Agent, base: '/developer' | '/admin', proof: object) {
  const token = await csrfOf(client);
  return client.post(`/api/v1${base}/login/second-factor`).set('X-CSRF-Token', token).send(proof);
}
