import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';
import { fieldError } from '../shared/domain/field-error';
import { normaliseUsername } from './fields';
import { AccountCommand, AccountState, decideAccount, evolveAccount } from './account-decisions';
import { accountEventSchemas } from './account-events';

/**
 * A developer member. Its stream is named after the normalised username, so the event store's
 * `no_stream` check on the first append is what makes usernames unique, case-insensitively.
 */
export function memberStream(username: string): string {
  return `member-${normaliseUsername(username)}`;
}

const memberProfileSchema = z.object({
  member_id: z.int().min(1),
  username: z.string(),
  nickname: z.string().nullable(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  /** Self-describing PHC string (algorithm and parameters included), never the password. */
  password_hash: z.string(),
});

export type MemberProfile = z.infer<typeof memberProfileSchema>;

export const memberEventSchemas = {
  MemberRegistered: memberProfileSchema,
  ...accountEventSchemas,
} satisfies EventSchemas;

export type MemberEvent = EventOf<typeof memberEventSchemas>;

export type RegisterMember = { type: 'RegisterMember'; data: MemberProfile };
export type MemberCommand = RegisterMember | AccountCommand;

/** A registered member: the profile, and the links mailed to it that are still outstanding. */
export type RegisteredMember = { status: 'registered' } & MemberProfile & AccountState;

export type MemberState = { status: 'none' } | RegisteredMember;

export function assertUsernameAvailable(state: MemberState, username: string): void {
  if (state.status === 'registered') {
    throw fieldError(
      'username_taken',
      'username',
      `the username "${username}" is already registered: choose another one`,
    );
  }
}

export function assertArgon2id(password_hash: string): void {
  if (!password_hash.startsWith('$argon2id$')) {
    throw new DomainError('invalid_password_hash', 'a member is registered with an Argon2id hash only');
  }
}

function registerMember({ data }: RegisterMember, state: MemberState): MemberEvent[] {
  assertUsernameAvailable(state, data.username);
  if (!Number.isSafeInteger(data.member_id) || data.member_id < 1) {
    throw new DomainError('invalid_member_id', 'member ids are positive integers');
  }
  assertArgon2id(data.password_hash);
  return [{ type: 'MemberRegistered', data }];
}

function requireRegistered(state: MemberState): RegisteredMember {
  if (state.status !== 'registered') throw new DomainError('member_not_found', 'no such member');
  return state;
}

export const memberDecider: Decider<MemberCommand, MemberEvent, MemberState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'MemberRegistered')
      return {
        status: 'registered',
        ...event.data,
        resets: {},
        pending_email: null,
        reset_by_administrator: null,
        restores: {},
      };
    return state.status === 'registered' ? evolveAccount(state, event) : state;
  },

  // Registering starts the stream; every other command is the account's, on a registered member.
  decide: (command, state) =>
    command.type === 'RegisterMember'
      ? registerMember(command, state)
      : decideAccount(command, requireRegistered(state)),
};
