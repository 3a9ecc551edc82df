import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';

/**
 * Which administrators are disabled: one stream for all of them, so that two disables decided at
 * once are serialised by the stream's expected revision, and the last enabled super administrator
 * cannot be disabled by two requests that each saw another one still enabled.
 */
export const ADMIN_STANDING_STREAM = 'admin_standing';

const adminRef = z.object({ admin_id: z.int().min(1) });

export const adminStandingEventSchemas = { AdminDisabled: adminRef, AdminEnabled: adminRef } satisfies EventSchemas;

export type AdminStandingEvent = EventOf<typeof adminStandingEventSchemas>;

/**
 * `is_super`: whether the administrator addressed is a super one; `by_super`: whether the one who
 * asks is (a session's administrator, or the shell for the CLI).
 */
interface Addressed {
  admin_id: number;
  is_super: boolean;
  by_super: boolean;
}

export type AdminStandingCommand =
  /** `super_ids`: every super administrator there is; the command carries them so that the decider stays pure. */
  | { type: 'DisableAdmin'; data: Addressed & { super_ids: number[] } }
  | { type: 'EnableAdmin'; data: Addressed };

/**
 * Only a super administrator disables, enables or resets the password of a super administrator
 * (docs/administrators.md): a holder of access.manage in a role group would otherwise take over an
 * account that holds every permission, or lock it out.
 */
export function assertSuperAdminOnly(target: { is_super: boolean }, by_super: boolean): void {
  if (target.is_super && !by_super) {
    throw new DomainError('super_admin_only', 'only a super administrator may disable, enable or reset the password of a super administrator: ask one');
  }
}

export interface AdminStanding {
  disabled: number[];
}

export const isDisabled = (standing: AdminStanding, admin_id: number): boolean => standing.disabled.includes(admin_id);

export const adminStandingDecider: Decider<AdminStandingCommand, AdminStandingEvent, AdminStanding> = {
  initialState: { disabled: [] },

  evolve(state, { type, data: { admin_id } }) {
    const others = state.disabled.filter((id) => id !== admin_id);
    return { disabled: type === 'AdminDisabled' ? [...others, admin_id] : others };
  },

  decide(command, state) {
    const { admin_id, by_super } = command.data;
    assertSuperAdminOnly(command.data, by_super);
    const disabled = isDisabled(state, admin_id);
    if (command.type === 'EnableAdmin') {
      if (!disabled) throw new DomainError('admin_already_enabled', `administrator ${admin_id} is already enabled`);
      return [{ type: 'AdminEnabled', data: { admin_id } }];
    }
    if (disabled) throw new DomainError('admin_already_disabled', `administrator ${admin_id} is already disabled`);
    const { is_super, super_ids } = command.data;
    if (is_super && !super_ids.some((id) => id !== admin_id && !isDisabled(state, id))) {
      throw new DomainError('last_super_admin', 'this is the last enabled super administrator: enable or create another one first');
    }
    return [{ type: 'AdminDisabled', data: { admin_id } }];
  },
};
