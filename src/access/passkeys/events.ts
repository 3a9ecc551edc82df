import { z } from 'zod';
import type { EventOf, EventSchemas } from '../../shared/domain/events';

/** Whose passkey: a developer member's or an administrator's, by id; the two sides never share a stream. */
const account = { side: z.enum(['member', 'admin']), account_id: z.int().min(1) };

/**
 * A passkey's events on its account's stream (`passkeys-<side>-<id>`). The credential's public key
 * is kept as the authenticator gave it (COSE, base64url): it proves a signature, it opens nothing.
 * The private key never leaves the authenticator.
 */
export const passkeyEventSchemas = {
  PasskeyAdded: z.object({
    ...account,
    passkey_id: z.string(),
    name: z.string(),
    credential_id: z.string(),
    public_key: z.string(),
    counter: z.int().min(0),
    transports: z.array(z.string()),
  }),
  PasskeyRemoved: z.object({ ...account, passkey_id: z.string(), name: z.string() }),
  /**
   * The passkey signed a challenge: a sign-in of its own or a second factor. `counter`: the
   * authenticator's signature counter then; `challenge_digest`: the challenge's SHA-256, so that the
   * same signed challenge is never taken twice.
   */
  PasskeyUsed: z.object({
    ...account,
    passkey_id: z.string(),
    name: z.string(),
    purpose: z.enum(['sign_in', 'second_factor']),
    counter: z.int().min(0),
    challenge_digest: z.string(),
  }),
} satisfies EventSchemas;

export type PasskeyEvent = EventOf<typeof passkeyEventSchemas>;
export type PasskeySide = PasskeyEvent['data']['side'];
