import { fold } from '../shared/domain/decider';
import { Registration } from './fields';
import { assertUsernameAvailable, memberDecider, memberStream, MemberEvent } from './decider';
import { MEMBER_IDS } from '../shared/domain/sequences';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { handle, loadStream } from '../shared/commands/handle';
import { allocateId } from '../shared/commands/ids';
import { PasswordHasher } from './passwords';
import { MEMBER_NAMES, usernameTaken } from './names';
import { assertNameFree, underClaim } from '../shared/commands/name-claims';

export interface Registered {
  member_id: number;
  username: string;
  nickname: string | null;
  position: string;
}

/**
 * Registers a member: refuse a taken username, or one that reads like a taken one, before any
 * work; hash the password, take the next member id, claim the username's look-alike keys, then
 * append to the username's stream with `no_stream`. The claim settles a race between names that
 * read alike (./names.ts), the `no_stream` one between two spellings of one name.
 */
export async function registerMember(
  store: EventStore,
  hasher: PasswordHasher,
  registration: Registration,
  ctx: CommandContext,
): Promise<Registered> {
  const stream = memberStream(registration.username);
  const existing = await loadStream<MemberEvent>(store, stream);
  assertUsernameAvailable(fold(memberDecider, existing), registration.username);
  const refuse = usernameTaken(registration.username);
  const claim = { name: registration.username, claimant: stream };
  await assertNameFree(store, MEMBER_NAMES, claim, ctx, refuse);

  const password_hash = await hasher.hash(registration.password);
  const member_id = await allocateId(store, MEMBER_IDS, ctx);
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
  const { position } = await underClaim(store, MEMBER_NAMES, claim, { ...ctx, actor }, refuse, () =>
    handle(store, stream, memberDecider, command, { ...ctx, actor }),
  );
  return { member_id, username: profile.username, nickname: profile.nickname, position: position! };
}
