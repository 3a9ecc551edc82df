import { randomUUID } from 'node:crypto';
import { fold } from '../../shared/domain/decider';
import { CommandContext } from '../../shared/commands/context';
import { handle, loadStream } from '../../shared/commands/handle';
import { EventStore } from '../../stores/ports';
import { passkeysDecider, passkeysStream, PasskeysState } from './decider';
import type { PasskeyEvent, PasskeySide } from './events';

export interface Account {
  side: PasskeySide;
  id: number;
}

/**
 * The user handle a passkey is created with, which the authenticator gives back at a sign-in: whose
 * passkey it is, so a discoverable credential names its account without a username typed.
 */
export const handleOf = ({ side, id }: Account): string => `${side}-${id}`;

export function accountOfHandle(handle: string, side: PasskeySide): Account | null {
  const match = /^(member|admin)-([1-9][0-9]{0,15})$/.exec(handle);
  return match && match[1] === side ? { side, id: Number(match[2]) } : null;
}

/** Whether the account holds a passkey: then a password sign-in awaits a second factor. */
export const hasPasskey = async (store: EventStore, account: Account): Promise<boolean> =>
  (await passkeysOf(store, account)).passkeys.length > 0;

export async function passkeysOf(store: EventStore, { side, id }: Account): Promise<PasskeysState> {
  return fold(passkeysDecider, await loadStream<PasskeyEvent>(store, passkeysStream(side, id)));
}

/** What an account is shown of its passkeys: never the key, which is no use to anyone but the service. */
export async function listPasskeys(store: EventStore, account: Account) {
  return (await passkeysOf(store, account)).passkeys.map(({ passkey_id, name }) => ({ id: passkey_id, name }));
}

export async function addPasskey(
  store: EventStore,
  { side, id }: Account,
  passkey: { name: string; credential_id: string; public_key: string; counter: number; transports: string[] },
  ctx: CommandContext,
) {
  const data = { side, account_id: id, passkey_id: randomUUID(), ...passkey };
  const decision = await handle(store, passkeysStream(side, id), passkeysDecider, { type: 'AddPasskey', data }, ctx);
  return { id: data.passkey_id, name: data.name, position: decision.position };
}

export const removePasskey = (store: EventStore, { side, id }: Account, passkey_id: string, ctx: CommandContext) =>
  handle(
    store,
    passkeysStream(side, id),
    passkeysDecider,
    { type: 'RemovePasskey', data: { side, account_id: id, passkey_id } },
    ctx,
  );

export const recordPasskeyUse = (
  store: EventStore,
  { side, id }: Account,
  use: { passkey_id: string; purpose: 'sign_in' | 'second_factor'; counter: number; challenge_digest: string },
  ctx: CommandContext,
) =>
  handle(
    store,
    passkeysStream(side, id),
    passkeysDecider,
    { type: 'UsePasskey', data: { side, account_id: id, ...use } },
    ctx,
  );
