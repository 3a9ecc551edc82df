import { z } from 'zod';
import { DomainEvent } from './decider';
import type { EventSchemas } from './events';

/**
 * A sequence hands out integer ids, one event each. Only its last event matters, so allocation
 * reads one event however many ids exist. An id taken by a command that then loses its race
 * leaves a gap, as a database sequence does; ids are never reused.
 */
export interface Sequence {
  stream: string;
  eventType: string;
  /** The field of the event's data that holds the id. */
  field: string;
}

export const MEMBER_IDS: Sequence = { stream: 'sequence-member_id', eventType: 'MemberIdAllocated', field: 'member_id' };
export const ADMIN_IDS: Sequence = { stream: 'sequence-admin_id', eventType: 'AdminIdAllocated', field: 'admin_id' };

export type IdAllocated = DomainEvent<string, Record<string, number>>;

// Derived from the sequences themselves, so a sequence's event type and field cannot drift from its schema.
export const sequenceEventSchemas = Object.fromEntries(
  [MEMBER_IDS, ADMIN_IDS].map((s) => [s.eventType, z.object({ [s.field]: z.int().min(1) })]),
) satisfies EventSchemas;

export function nextId(sequence: Sequence, last: IdAllocated | null): IdAllocated {
  return { type: sequence.eventType, data: { [sequence.field]: (last?.data[sequence.field] ?? 0) + 1 } };
}

export function idOf(sequence: Sequence, allocated: IdAllocated): number {
  return allocated.data[sequence.field]!;
}
