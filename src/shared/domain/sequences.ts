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

export const MEMBER_IDS: Sequence = {
  stream: 'sequence-member_id',
  eventType: 'MemberIdAllocated',
  field: 'member_id',
};
export const ADMIN_IDS: Sequence = { stream: 'sequence-admin_id', eventType: 'AdminIdAllocated', field: 'admin_id' };

export type IdAllocated = DomainEvent<string, Record<string, number>>;

/** The event a sequence appends, for the slice that owns it to register: derived from the sequence, so the two cannot drift. */
export function sequenceEventSchemas(sequence: Sequence): EventSchemas {
  return { [sequence.eventType]: z.object({ [sequence.field]: z.int().min(1) }) };
}

export function nextId(sequence: Sequence, last: IdAllocated | null): IdAllocated {
  return { type: sequence.eventType, data: { [sequence.field]: (last?.data[sequence.field] ?? 0) + 1 } };
}

export function idOf(sequence: Sequence, allocated: IdAllocated): number {
  return allocated.data[sequence.field]!;
}
