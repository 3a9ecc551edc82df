import { OUTBOX_STATUSES } from '../shared/outbox';

/**
 * Every value each counter's labels can take. Each series is exported at 0 from the start, so a
 * rate, a dashboard panel or an alert over it has data before the first failure, not "no data".
 */
export const EVENT_STORE_OPERATIONS = ['append', 'read_stream', 'read_all', 'head_position'] as const;
export const DOCUMENT_STORE_OPERATIONS = [
  'get',
  'get_many',
  'find',
  'find_in_range',
  'count',
  'write',
  'checkpoint',
  'checkpoints',
  'replace_collection',
] as const;
export const STORE_FAILURE_KINDS = [
  'wrong_expected_version',
  'unavailable',
  'storage_full',
  'stream_deleted',
  'invalid_position',
  'other',
] as const;
/** An attempt ends an outbox entry's turn in one of these; pending is only ever its start. */
export const ATTEMPT_OUTCOMES = OUTBOX_STATUSES.filter((s) => s !== 'pending');
export const MAIL_OUTCOMES = ['sent', 'failed'] as const;
export const LOGIN_REALMS = ['member', 'admin'] as const;
export const LOGIN_OUTCOMES = ['success', 'wrong_password', 'limited', 'busy', 'invalid'] as const;

export type EventStoreOperation = (typeof EVENT_STORE_OPERATIONS)[number];
export type DocumentStoreOperation = (typeof DOCUMENT_STORE_OPERATIONS)[number];
export type StoreFailureKind = (typeof STORE_FAILURE_KINDS)[number];
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/** Every combination of the label values: the series a counter starts with. */
export function combinations<L extends string>(values: Record<L, readonly string[]>): Record<L, string>[] {
  return (Object.entries(values) as [L, readonly string[]][]).reduce<Record<L, string>[]>(
    (sets, [label, options]) => sets.flatMap((set) => options.map((value) => ({ ...set, [label]: value }))),
    [{} as Record<L, string>],
  );
}
