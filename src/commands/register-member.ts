import { fold } from '../domain/decider';
import { Registration } from '../domain/member-fields';
import { assertUsernameAvailable, memberDecider, memberStream, MemberEvent } from '../domain/member';
import { MEMBER_ID_SEQUENCE_STREAM, MemberIdAllocated, nextMemberId } from '../domain/member-ids';
import { EventStore } from '../stores/ports';
import { CommandContext, toNewEvents } from './context';
import { handle, retryOnConflict } from './handle';
import { PasswordHasher } from './passwords';

export interface Registered {
  member_id: number;
  username: string;
  nickname: string | null;
  position: string;
}

/**
 * Registers a member: refuse a taken username before any work, hash the password, take the next
 * member id, then append to the username's stream with `no_stream`, which settles a race.
 */
export async function registerMember(
  store: EventStore,
  hasher: PasswordHasher,
  registration: Registration,
  ctx: CommandContext,
): Promise<Registered> {
  const stream = memberStream(registration.username);
  const existing = await store.readStream(stream);
  assertUsernameAvailable(fold(memberDecider, existing as unknown as MemberEvent[]), registration.username);

  const password_hash = await hasher.hash(registration.password);
  const member_id = await allocateMemberId(store, ctx);
  const profile = {
    member_id,
    username: registration.username,
    nickname: registration.nickname ?? null,
    email: registration.email ?? null,
    mobile: registration.mobile ?? null,
    password_hash,
  };
  // An anonymous registrant is the member being registered.
  const actor = ctx.actor.id === null ? { kind: 'member' as const, id: member_id } : ctx.actor;
  const command = { type: 'RegisterMember' as const, data: profile };
  const position = await handle(store, stream, memberDecider, command, { ...ctx, actor });
  return { member_id, username: profile.username, nickname: profile.nickname, position: position! };
}

// Many registrations contend for the sequence at once; each round one of them wins, so allow
// more rounds than a single aggregate needs.
const ALLOCATION_ATTEMPTS = 100;

function allocateMemberId(store: EventStore, ctx: CommandContext): Promise<number> {
  return retryOnConflict(MEMBER_ID_SEQUENCE_STREAM, ALLOCATION_ATTEMPTS, async () => {
    const [last] = await store.readStream(MEMBER_ID_SEQUENCE_STREAM, { direction: 'backwards', maxCount: 1 });
    const next = nextMemberId((last as unknown as MemberIdAllocated | undefined) ?? null);
    await store.append(MEMBER_ID_SEQUENCE_STREAM, toNewEvents([next], ctx), last ? last.revision : 'no_stream');
    return next.data.member_id;
  });
}
