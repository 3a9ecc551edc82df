import { fold } from '../shared/domain/decider';
import type { Recorded } from '../shared/domain/events';
import { memberDecider, memberStream, MemberEvent, RegisteredMember } from './decider';
import { EventStore } from '../stores/ports';
import { AuthenticationFailed } from '../shared/commands/errors';
import { loadStream } from '../shared/commands/handle';
import { PasswordHasher } from './passwords';

export interface LoggedIn {
  member_id: number;
  username: string;
  nickname: string | null;
  /** Position of the member's last event, for the session's next read to wait on. */
  position: string;
  /** The password is a one-time one an administrator gave: it must be changed before anything else. */
  one_time_password: boolean;
}

const PASSWORD_SETTERS: readonly string[] = ['PasswordReset', 'PasswordChanged', 'PasswordResetByAdministrator'];

/** Whether the member's current password is the one-time password an administrator gave (the last to set one). */
export function hasOneTimePassword(events: readonly Pick<MemberEvent, 'type'>[]): boolean {
  return events.findLast((e) => PASSWORD_SETTERS.includes(e.type))?.type === 'PasswordResetByAdministrator';
}

/**
 * Checks a member's password against the member's own stream (not a read model), so a member
 * can log in the moment registration answers. Unknown user and wrong password look the same.
 */
export async function loginMember(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  password: string,
): Promise<LoggedIn> {
  const found = await memberFromLog(store, username);
  const valid = found ? await hasher.verify(found.state.password_hash, password) : await hasher.verifyNothing(password);
  if (!valid || !found) {
    throw new AuthenticationFailed();
  }
  return {
    member_id: found.state.member_id,
    username: found.state.username,
    nickname: found.state.nickname,
    position: found.events[found.events.length - 1]!.position,
    one_time_password: hasOneTimePassword(found.events),
  };
}

/** The member as its own stream has it (the log, not a read model), or null when there is none. */
export async function memberFromLog(
  store: EventStore,
  username: string,
): Promise<{ state: RegisteredMember; events: Recorded<MemberEvent>[] } | null> {
  const events = await loadStream<MemberEvent>(store, memberStream(username));
  const state = fold(memberDecider, events);
  return state.status === 'registered' ? { state, events } : null;
}

/** Whether the member registered, from its own stream: the log, not a read model that may be rebuilding. */
export async function isRegistered(store: EventStore, username: string): Promise<boolean> {
  return (await store.readStream(memberStream(username), { maxCount: 1 })).length > 0;
}
