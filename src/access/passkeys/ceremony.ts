import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../../shared/http/context';
import { HttpError } from '../../shared/http/envelope';
import { sessionOf } from '../../shared/http/session';
import type { StoredPasskey } from './decider';

/** Who the authenticator signs for: PUBLIC_URL's host (the RP ID) and origin, which the browser vouches for. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: 'Platform console', origin: url.origin };
}

/** How long an answer to a challenge is taken: the browser's prompt is given two minutes of it. */
const CEREMONY_MS = 5 * 60_000;
const PROMPT_MS = 120_000;

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'base64url');

/** What @simplewebauthn/browser's startRegistration answers, as JSON; its fields are checked by the verification. */
export const registrationResponseSchema = z
  .looseObject({
    id: base64url,
    rawId: base64url,
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url }),
    clientExtensionResults: z.looseObject({}),
  })
  .meta({
    id: 'PasskeyRegistrationResponse',
    description: "The browser's answer to the options, as startRegistration gives it",
  });

/** What @simplewebauthn/browser's startAuthentication answers, as JSON. */
export const authenticationResponseSchema = z
  .looseObject({
    id: base64url,
    rawId: base64url,
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.optional(),
    }),
    clientExtensionResults: z.looseObject({}),
  })
  .meta({
    id: 'PasskeyAuthenticationResponse',
    description: "The browser's answer to the options, as startAuthentication gives it",
  });

/** The options the browser hands navigator.credentials (startRegistration, startAuthentication), as JSON. */
export const ceremonyOptionsSchema = z.looseObject({ challenge: z.string() }).meta({
  id: 'PasskeyOptions',
  description: "Hand them to @simplewebauthn/browser's startRegistration or startAuthentication",
});

type CeremonyOptions = z.input<typeof ceremonyOptionsSchema>;

/** Keeps the challenge in the session: the answer must come back to this session, for this purpose. */
function remember(ctx: AppContext, purpose: string, challenge: string): void {
  sessionOf(ctx).ceremony = { purpose, challenge, expires_at: Date.now() + CEREMONY_MS };
}

/**
 * Takes the session's challenge for `purpose`, whatever the answer turns out to be: a challenge is
 * signed once, and a second answer to it (a replay) finds none.
 */
export function takeChallenge(ctx: AppContext, purpose: string, optionsPath: string): string {
  const session = sessionOf(ctx);
  const ceremony = session.ceremony;
  delete session.ceremony;
  if (!ceremony || ceremony.purpose !== purpose || ceremony.expires_at < Date.now()) {
    throw new HttpError(
      409,
      'passkey_challenge_missing',
      `this session has no challenge waiting for this answer (each is answered once, within 5 minutes): ask for new options (POST ${optionsPath})`,
    );
  }
  return ceremony.challenge;
}

/** The challenge's digest, what the passkey's stream remembers of a signed one. */
export const challengeDigest = (challenge: string): string =>
  createHash('sha256').update(challenge).digest('base64url');

const notVerified = (err: unknown) =>
  new HttpError(
    422,
    'passkey_not_verified',
    `the authenticator's answer was not accepted: ${err instanceof Error ? err.message : String(err)}`,
  );

export async function registrationOptions(
  ctx: AppContext,
  rp: RelyingParty,
  purpose: string,
  account: { handle: string; username: string; credential_ids: string[] },
): Promise<CeremonyOptions> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.username,
    userID: new TextEncoder().encode(account.handle),
    timeout: PROMPT_MS,
    attestationType: 'none',
    excludeCredentials: account.credential_ids.map((id) => ({ id })),
    // A discoverable credential: the administrator signs in with it without typing a username.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  remember(ctx, purpose, options.challenge);
  return { ...options };
}

/** Checks the new credential's answer against the challenge, origin and RP ID: what the account keeps of it. */
export async function verifiedRegistration(rp: RelyingParty, challenge: string, response: unknown) {
  const verified = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((err: unknown) => {
    throw notVerified(err);
  });
  if (!verified.verified) throw notVerified('the registration was not verified');
  const { credential } = verified.registrationInfo;
  return {
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** Options to sign: for `passkeys` when the account is known (a second factor), any of this site's when not. */
export async function authenticationOptions(
  ctx: AppContext,
  rp: RelyingParty,
  purpose: string,
  passkeys?: StoredPasskey[],
): Promise<CeremonyOptions> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: PROMPT_MS,
    userVerification: 'required',
    ...(passkeys && { allowCredentials: passkeys.map((p) => ({ id: p.credential_id })) }),
  });
  remember(ctx, purpose, options.challenge);
  return { ...options };
}

/** The signature checked with the passkey's public key; false on any mismatch. Answers the new counter. */
export async function verifiedAssertion(
  rp: RelyingParty,
  challenge: string,
  response: z.output<typeof authenticationResponseSchema>,
  passkey: StoredPasskey,
): Promise<{ counter: number } | null> {
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    });
    return verified.verified ? { counter: verified.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
