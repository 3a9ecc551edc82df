import { Decider, decideByType, DomainError } from '../../shared/domain/decider';
import type { PasskeyEvent, PasskeySide } from './events';

type Added = Extract<PasskeyEvent, { type: 'PasskeyAdded' }>['data'];
type Used = Extract<PasskeyEvent, { type: 'PasskeyUsed' }>['data'];

/** One account's passkeys: `passkeys-admin-7`, `passkeys-member-12`. */
export const passkeysStream = (side: PasskeySide, account_id: number): string => `passkeys-${side}-${account_id}`;

/** More would be a list nobody reads through; an account rarely has more than a few devices. */
export const MAX_PASSKEYS = 20;
/** The digests of the last challenges signed, kept to refuse a signed challenge twice. */
const REMEMBERED_CHALLENGES = 100;

export type StoredPasskey = Omit<Added, 'side' | 'account_id'>;

export interface PasskeysState {
  passkeys: StoredPasskey[];
  used: string[];
}

export type PasskeyCommand =
  | { type: 'AddPasskey'; data: Added }
  | { type: 'RemovePasskey'; data: { side: PasskeySide; account_id: number; passkey_id: string } }
  | { type: 'UsePasskey'; data: Omit<Used, 'name'> };

function passkeyOf(state: PasskeysState, passkey_id: string): StoredPasskey {
  const passkey = state.passkeys.find((p) => p.passkey_id === passkey_id);
  if (!passkey)
    throw new DomainError('passkey_not_found', `this account has no passkey ${passkey_id}: list them again`);
  return passkey;
}

function add({ data }: Extract<PasskeyCommand, { type: 'AddPasskey' }>, state: PasskeysState): PasskeyEvent[] {
  if (state.passkeys.some((p) => p.credential_id === data.credential_id)) {
    throw new DomainError('passkey_exists', 'this authenticator already holds a passkey of this account');
  }
  if (state.passkeys.length >= MAX_PASSKEYS) {
    throw new DomainError('too_many_passkeys', `an account holds at most ${MAX_PASSKEYS} passkeys: remove one first`);
  }
  return [{ type: 'PasskeyAdded', data }];
}

/**
 * A signature is taken once: the same challenge signed again (a replay, or two requests racing with
 * one answer) is refused, and so is a counter that went back, the sign of a cloned authenticator.
 */
function use({ data }: Extract<PasskeyCommand, { type: 'UsePasskey' }>, state: PasskeysState): PasskeyEvent[] {
  const passkey = passkeyOf(state, data.passkey_id);
  if (state.used.includes(data.challenge_digest)) {
    throw new DomainError('passkey_challenge_used', 'this challenge was signed and taken already: ask for a new one');
  }
  if ((passkey.counter > 0 || data.counter > 0) && data.counter <= passkey.counter) {
    throw new DomainError(
      'passkey_counter_regressed',
      "the authenticator's signature counter went back: it may have been copied; remove this passkey and add it again",
    );
  }
  return [{ type: 'PasskeyUsed', data: { ...data, name: passkey.name } }];
}

export const passkeysDecider: Decider<PasskeyCommand, PasskeyEvent, PasskeysState> = {
  initialState: { passkeys: [], used: [] },

  evolve(state, event) {
    switch (event.type) {
      case 'PasskeyAdded': {
        const { side: _side, account_id: _id, ...passkey } = event.data;
        return { ...state, passkeys: [...state.passkeys, passkey] };
      }
      case 'PasskeyRemoved':
        return { ...state, passkeys: state.passkeys.filter((p) => p.passkey_id !== event.data.passkey_id) };
      case 'PasskeyUsed': {
        const { passkey_id, counter, challenge_digest } = event.data;
        return {
          passkeys: state.passkeys.map((p) => (p.passkey_id === passkey_id ? { ...p, counter } : p)),
          used: [...state.used, challenge_digest].slice(-REMEMBERED_CHALLENGES),
        };
      }
    }
  },

  decide: decideByType<PasskeyCommand, PasskeyEvent, PasskeysState>({
    AddPasskey: add,
    RemovePasskey: ({ data }, state) => [
      { type: 'PasskeyRemoved', data: { ...data, name: passkeyOf(state, data.passkey_id).name } },
    ],
    UsePasskey: use,
  }),
};
