import { z } from 'zod';
import { Decider, decideByType, DomainError } from '../shared/domain/decider';
import { fieldError } from '../shared/domain/field-error';
import { isLabel, normaliseLabel, readAlike } from '../shared/domain/labels';
import type { EventOf, EventSchemas } from '../shared/domain/events';
import { assertHeld, Grantor } from './grantor';

/** A role group: the permissions its administrators hold, and role id used in page whitelists. */
export const roleGroupStream = (roleId: number): string => `role_group-${roleId}`;

const roleId = z.int().min(1);

// Any names: which exist is the slices' registration (REGISTRY.permissions), checked by the decider
// when a group is defined, so that the events need no list that the composition builds.
const roleGroupDefinitionSchema = z.object({ role_id: roleId, name: z.string(), permissions: z.array(z.string()) });

export type RoleGroupDefinition = z.infer<typeof roleGroupDefinitionSchema>;

export const roleGroupEventSchemas = {
  RoleGroupDefined: roleGroupDefinitionSchema,
  RoleGroupEnabled: z.object({ role_id: roleId }),
  RoleGroupDisabled: z.object({ role_id: roleId }),
} satisfies EventSchemas;

export type RoleGroupEvent = EventOf<typeof roleGroupEventSchemas>;

/** `by` defines, enables or disables a group only with permissions it holds itself (assertHeld). */
export type RoleGroupCommand =
  /**
   * `registered`: every permission the slices registered; a group may name only those. `taken`:
   * the names of the groups there are, which no new name may read like.
   */
  | {
      type: 'DefineRoleGroup';
      data: RoleGroupDefinition;
      registered: readonly string[];
      taken: readonly string[];
      by: Grantor;
    }
  | { type: 'EnableRoleGroup' | 'DisableRoleGroup'; data: { role_id: number }; by: Grantor };

export type RoleGroupState = { status: 'none' } | ({ status: 'defined'; enabled: boolean } & RoleGroupDefinition);

/** Names are unique as they read: by their confusable skeleton, case aside (docs/administrators.md). */
function assertNameFree(name: string, taken: readonly string[]): void {
  const alike = taken.find((other) => readAlike(name, other));
  if (alike !== undefined) {
    throw new DomainError(
      'role_group_name_taken',
      `the role group "${alike}" already has this name, or one that reads like it: choose another name`,
    );
  }
}

function assertDefinition({ role_id, name, permissions }: RoleGroupDefinition, registered: readonly string[]): void {
  if (!Number.isSafeInteger(role_id) || role_id < 1) {
    throw new DomainError('invalid_role_id', 'role group ids are integers of at least 1');
  }
  if (!isLabel(name, 64)) {
    throw fieldError(
      'invalid_role_group_name',
      'name',
      'a role group name has 1 to 64 characters, not only spaces, and no control, format or zero-width character (line break, tab, bidirectional override, zero-width space)',
    );
  }
  const unknown = permissions.filter((p) => !registered.includes(p));
  if (unknown.length > 0) {
    throw fieldError('unknown_permission', 'permissions', `unknown permission ${unknown.join(', ')}`);
  }
  if (new Set(permissions).size !== permissions.length) {
    throw fieldError('duplicate_permission', 'permissions', 'each permission may be listed once');
  }
}

export const roleGroupDecider: Decider<RoleGroupCommand, RoleGroupEvent, RoleGroupState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'RoleGroupDefined':
        return { status: 'defined', enabled: true, ...event.data };
      case 'RoleGroupEnabled':
        return state.status === 'defined' ? { ...state, enabled: true } : state;
      case 'RoleGroupDisabled':
        return state.status === 'defined' ? { ...state, enabled: false } : state;
    }
  },

  decide: decideByType<RoleGroupCommand, RoleGroupEvent, RoleGroupState>({
    DefineRoleGroup: define,
    EnableRoleGroup: (command, state) => standing(command, state, true),
    DisableRoleGroup: (command, state) => standing(command, state, false),
  }),
};

type Command<Type extends RoleGroupCommand['type']> = Extract<RoleGroupCommand, { type: Type }>;

function define(command: Command<'DefineRoleGroup'>, state: RoleGroupState): RoleGroupEvent[] {
  if (state.status === 'defined')
    throw new DomainError('role_group_exists', `role group ${command.data.role_id} already exists`);
  const definition = { ...command.data, name: normaliseLabel(command.data.name) };
  assertDefinition(definition, command.registered);
  assertNameFree(definition.name, command.taken);
  assertHeld(definition.permissions, command.by);
  return [{ type: 'RoleGroupDefined', data: definition }];
}

/** Enables or disables a group whose permissions `by` holds; one already so is refused. */
function standing(
  { data: { role_id }, by }: Command<'EnableRoleGroup' | 'DisableRoleGroup'>,
  state: RoleGroupState,
  enable: boolean,
): RoleGroupEvent[] {
  if (state.status === 'none') throw new DomainError('role_group_not_found', `there is no role group ${role_id}`);
  assertHeld(state.permissions, by);
  if (state.enabled === enable) {
    throw new DomainError(
      enable ? 'role_group_already_enabled' : 'role_group_already_disabled',
      `role group ${role_id} is already ${enable ? 'enabled' : 'disabled'}`,
    );
  }
  return [{ type: enable ? 'RoleGroupEnabled' : 'RoleGroupDisabled', data: { role_id } }];
}
