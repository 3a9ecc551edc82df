import { DomainEvent, fold } from '../shared/domain/decider';
import {
  memberGroupDecider,
  MemberGroupDefinition,
  MemberGroupEvent,
  MemberGroupState,
  memberGroupStream,
} from './member-group';
import { RoleGroupDefinition, roleGroupDecider, RoleGroupEvent, RoleGroupState, roleGroupStream } from './role-group';
import { Grantor } from './grantor';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { createStream, handle, loadStream } from '../shared/commands/handle';
import { createAtFreeId } from '../shared/commands/ids';
import { assertNameFree, underClaim } from '../shared/commands/name-claims';
import { ROLE_GROUP_NAMES, roleGroupNameTaken } from './names';

export interface RoleGroup extends RoleGroupDefinition {
  enabled: boolean;
}

/**
 * Defines a role group under the next free id, with permissions from those `registered` that `by`
 * holds, under a name that reads like no other group's; it starts enabled. The command is decided
 * first (a refusal appends nothing); then the name's look-alike keys are claimed (./names.ts), so of
 * two definitions at the same instant of names that read alike, in any process, one is refused;
 * the groups' own names are read too, for groups defined before names were claimed (the seeded ones).
 */
export async function defineRoleGroup(
  store: EventStore,
  group: { name: string; permissions: string[] },
  { registered, by }: { registered: readonly string[]; by: Grantor },
  ctx: CommandContext,
): Promise<{ id: number; position: string }> {
  const taken = (await listRoleGroups(store)).map((g) => g.name);
  const define = (role_id: number) =>
    ({ type: 'DefineRoleGroup', data: { role_id, ...group }, registered, taken, by }) as const;
  roleGroupDecider.decide(define(1), roleGroupDecider.initialState);
  // No id yet: a claim under way for any group holds its name.
  await assertNameFree(store, ROLE_GROUP_NAMES, { name: group.name, claimant: '' }, ctx, roleGroupNameTaken);
  return createAtFreeId(store, roleGroupStream, (role_id) =>
    underClaim(
      store,
      ROLE_GROUP_NAMES,
      { name: group.name, claimant: roleGroupStream(role_id) },
      ctx,
      roleGroupNameTaken,
      () => createStream(store, roleGroupStream(role_id), roleGroupDecider, define(role_id), ctx),
    ),
  );
}

/** Enables or disables a role group, when `by` holds every permission of it. */
export async function setRoleGroupEnabled(
  store: EventStore,
  role_id: number,
  enabled: boolean,
  by: Grantor,
  ctx: CommandContext,
): Promise<string | null> {
  const type = enabled ? 'EnableRoleGroup' : 'DisableRoleGroup';
  return (await handle(store, roleGroupStream(role_id), roleGroupDecider, { type, data: { role_id }, by }, ctx))
    .position;
}

/** The permissions of a role group, enabled or not, from its stream; none for no group (a super administrator's). */
export async function roleGroupPermissions(store: EventStore, role_id: number | null): Promise<string[] | null> {
  if (role_id === null) return [];
  const group = fold(roleGroupDecider, await loadStream<RoleGroupEvent>(store, roleGroupStream(role_id)));
  return group.status === 'defined' ? group.permissions : null;
}

export function defineMemberGroup(
  store: EventStore,
  group: { name: string; description: string },
  ctx: CommandContext,
): Promise<{ id: number; position: string }> {
  return createAtFreeId(store, memberGroupStream, (member_group_id) =>
    createStream(
      store,
      memberGroupStream(member_group_id),
      memberGroupDecider,
      { type: 'DefineMemberGroup', data: { member_group_id, ...group } },
      ctx,
    ),
  );
}

/**
 * Every group straight from the event store: ids are taken from 1 without gaps, so the first
 * missing stream ends the list. The CLI uses this, so it needs no projection running.
 */
async function listFromStreams<E extends DomainEvent, S>(
  store: EventStore,
  streamOf: (id: number) => string,
  decider: { initialState: S; evolve(state: S, event: E): S },
): Promise<S[]> {
  const found: S[] = [];
  for (let id = 1; ; id++) {
    const events = await loadStream<E>(store, streamOf(id));
    if (events.length === 0) return found;
    found.push(fold(decider, events));
  }
}

export async function listRoleGroups(store: EventStore): Promise<RoleGroup[]> {
  const states = await listFromStreams<RoleGroupEvent, RoleGroupState>(store, roleGroupStream, roleGroupDecider);
  return states.flatMap((s) =>
    s.status === 'defined'
      ? [{ role_id: s.role_id, name: s.name, permissions: s.permissions, enabled: s.enabled }]
      : [],
  );
}

export async function listMemberGroups(store: EventStore): Promise<MemberGroupDefinition[]> {
  const states = await listFromStreams<MemberGroupEvent, MemberGroupState>(
    store,
    memberGroupStream,
    memberGroupDecider,
  );
  return states.flatMap((s) =>
    s.status === 'defined' ? [{ member_group_id: s.member_group_id, name: s.name, description: s.description }] : [],
  );
}
