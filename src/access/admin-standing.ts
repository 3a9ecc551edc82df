import { z } from 'zod';
import { Decider, decideByType, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';
import { Addressed, assertHeld, assertMayAddress, Grantor } from './grantor';

/**
 * Which administrators are disabled: one stream for all of them, so that two disables decided at
 * once are serialised by the stream's expected revision, and the last enabled super administrator
 * cannot be disabled by two requests that each saw another one still enabled.
 */
export const ADMIN_STANDING_STREAM = 'admin_standing';

const adminRef = z.object({ admin_id: z.int().min(1) });

/**
 * What the one who disabled held: only one holding as much enables the administrator again, or a
 * sockpuppet the disabled one created would undo the disable at once.
 */
const disablerSchema = z.object({ is_super: z.boolean(), holds: z.array(z.string()) });

type Disabler = z.infer<typeof disablerSchema>;

export const adminStandingEventSchemas = {
  // `by` is absent from disables recorded before it: those are undone by a super administrator only.
  AdminDisabled: adminRef.extend({ by: disablerSchema.optional() }),
  AdminEnabled: adminRef,
} satisfies EventSchemas;

export type AdminStandingEvent = EventOf<typeof adminStandingEventSchemas>;

export type AdminStandingCommand =
  /** `super_ids`: every super administrator there is; the command carries them so that the decider stays pure. */
  | { type: 'DisableAdmin'; data: Addressed & { super_ids: number[] }; by: Grantor }
  | { type: 'EnableAdmin'; data: Addressed; by: Grantor };

export interface AdminStanding {
  disabled: number[];
  /** Who disabled each administrator in `disabled`, by id. */
  disabled_by: Record<number, Disabler>;
}

export const isDisabled = (standing: AdminStanding, admin_id: number): boolean => standing.disabled.includes(admin_id);

const SUPER_DISABLER: Disabler = { is_super: true, holds: [] };

function assertHoldsAsMuchAs(disabler: Disabler, by: Grantor): void {
  if (disabler.is_super && !by.is_super) {
    throw new DomainError(
      'super_admin_only',
      'a super administrator disabled this administrator: only a super administrator may enable it again',
    );
  }
  assertHeld(disabler.holds, by);
}

export const adminStandingDecider: Decider<AdminStandingCommand, AdminStandingEvent, AdminStanding> = {
  initialState: { disabled: [], disabled_by: {} },

  evolve(state, event) {
    const { admin_id } = event.data;
    const disabled = state.disabled.filter((id) => id !== admin_id);
    const { [admin_id]: _undone, ...disabled_by } = state.disabled_by;
    if (event.type === 'AdminEnabled') return { disabled, disabled_by };
    return {
      disabled: [...disabled, admin_id],
      disabled_by: { ...disabled_by, [admin_id]: event.data.by ?? SUPER_DISABLER },
    };
  },

  decide: decideByType<AdminStandingCommand, AdminStandingEvent, AdminStanding>({
    EnableAdmin: enable,
    DisableAdmin: disable,
  }),
};

function enable({ data, by }: Extract<AdminStandingCommand, { type: 'EnableAdmin' }>, state: AdminStanding) {
  const { admin_id } = data;
  assertMayAddress(data, by);
  if (!isDisabled(state, admin_id))
    throw new DomainError('admin_already_enabled', `administrator ${admin_id} is already enabled`);
  assertHoldsAsMuchAs(state.disabled_by[admin_id] ?? SUPER_DISABLER, by);
  return [{ type: 'AdminEnabled' as const, data: { admin_id } }];
}

/** The last enabled super administrator stays: disabling it would leave nobody to enable the others. */
function disable({ data, by }: Extract<AdminStandingCommand, { type: 'DisableAdmin' }>, state: AdminStanding) {
  const { admin_id, is_super, super_ids } = data;
  assertMayAddress(data, by);
  if (isDisabled(state, admin_id))
    throw new DomainError('admin_already_disabled', `administrator ${admin_id} is already disabled`);
  if (is_super && !super_ids.some((id) => id !== admin_id && !isDisabled(state, id))) {
    throw new DomainError(
      'last_super_admin',
      'this is the last enabled super administrator: enable or create another one first',
    );
  }
  const disabler = by.is_super ? SUPER_DISABLER : { is_super: false, holds: [...by.holds] };
  return [{ type: 'AdminDisabled' as const, data: { admin_id, by: disabler } }];
}
