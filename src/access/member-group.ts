import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import { isLabel } from '../shared/domain/labels';
import type { EventOf, EventSchemas } from '../shared/domain/events';

/** A member group, as partners read them through GET /open/member-groups. */
export const memberGroupStream = (id: number): string => `member_group-${id}`;

const memberGroupDefinitionSchema = z.object({
  member_group_id: z.int().min(1),
  name: z.string(),
  description: z.string(),
});

export type MemberGroupDefinition = z.infer<typeof memberGroupDefinitionSchema>;

export const memberGroupEventSchemas = { MemberGroupDefined: memberGroupDefinitionSchema } satisfies EventSchemas;

export type MemberGroupEvent = EventOf<typeof memberGroupEventSchemas>;
export type MemberGroupCommand = { type: 'DefineMemberGroup'; data: MemberGroupDefinition };
export type MemberGroupState = { status: 'none' } | ({ status: 'defined' } & MemberGroupDefinition);

export const memberGroupDecider: Decider<MemberGroupCommand, MemberGroupEvent, MemberGroupState> = {
  initialState: { status: 'none' },

  evolve: (_state, event) => ({ status: 'defined', ...event.data }),

  decide(command, state) {
    const { member_group_id, name, description } = command.data;
    if (state.status === 'defined') {
      throw new DomainError('member_group_exists', `member group ${member_group_id} already exists`);
    }
    if (!Number.isSafeInteger(member_group_id) || member_group_id < 1) {
      throw new DomainError('invalid_member_group_id', 'member group ids are integers of at least 1');
    }
    if (!isLabel(name, 64)) {
      throw new DomainError(
        'invalid_member_group_name',
        'a member group name has 1 to 64 characters, not only spaces, and no control character (line break, tab, bidirectional override)',
      );
    }
    if (description.length > 500) {
      throw new DomainError('invalid_member_group_description', 'a description has at most 500 characters');
    }
    return [{ type: 'MemberGroupDefined', data: command.data }];
  },
};
