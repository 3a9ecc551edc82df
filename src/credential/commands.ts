import { randomBytes } from 'node:crypto';
import { API_ID_RANDOM_BYTES, API_KEY_RANDOM_BYTES, apiKeyDigest, formatApiId, formatApiKey } from './api-key';
import { CredentialCommand, credentialDecider, credentialStream } from './decider';
import { CredentialEvent } from './events';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { Decision, handle } from '../shared/commands/handle';

/** Every credential and scope command goes through the member's one credential stream. */
export function decideCredential(
  store: EventStore,
  command: CredentialCommand,
  ctx: CommandContext,
): Promise<Decision<CredentialEvent>> {
  return handle(store, credentialStream(command.data.member_id), credentialDecider, command, ctx);
}

/**
 * An issued key in clear, for the one response that shows it. It is never stored, logged or put
 * in an event: only its digest goes into the command.
 */
export interface IssuedKey {
  apiid: string;
  apikey: string;
  position: string;
}

/** Claims an approved credential: a new API id and key. Of simultaneous claims exactly one wins. */
export async function claimCredential(store: EventStore, member_id: number, ctx: CommandContext): Promise<IssuedKey> {
  const apiid = formatApiId(randomBytes(API_ID_RANDOM_BYTES));
  const apikey = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
  const { position } = await decideCredential(
    store,
    {
      type: 'ClaimCredential',
      data: { member_id, apiid, key_digest: apiKeyDigest(apikey), now: ctx.now.toISOString() },
    },
    ctx,
  );
  return { apiid, apikey, position: position! };
}

/** Replaces the key of an active credential; the old one stays valid for `grace_seconds`. */
export async function rotateKey(
  store: EventStore,
  member_id: number,
  grace_seconds: number,
  ctx: CommandContext,
): Promise<IssuedKey & { previous_key_valid_until: string | null }> {
  const apikey = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
  const command = {
    type: 'RotateKey' as const,
    data: { member_id, key_digest: apiKeyDigest(apikey), grace_seconds, now: ctx.now.toISOString() },
  };
  const { events, position } = await decideCredential(store, command, ctx);
  const rotated = events[0] as Extract<CredentialEvent, { type: 'KeyRotated' }>;
  return {
    apiid: rotated.data.apiid,
    apikey,
    previous_key_valid_until: rotated.data.previous_key_valid_until,
    position: position!,
  };
}
