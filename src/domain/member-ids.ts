import { DomainEvent } from './decider';

/**
 * The sequence that hands out integer member ids. Only its last event matters, so allocation
 * reads one event however many members exist. A registration that loses its username race
 * after allocating leaves a gap, as a database sequence does; ids are never reused.
 */
export const MEMBER_ID_SEQUENCE_STREAM = 'sequence-member_id';

export type MemberIdAllocated = DomainEvent<'MemberIdAllocated', { member_id: number }>;

export function nextMemberId(last: MemberIdAllocated | null): MemberIdAllocated {
  return { type: 'MemberIdAllocated', data: { member_id: (last?.data.member_id ?? 0) + 1 } };
}
