/**
 * Who acts: a member, an administrator, the service itself (seeding), an operator at the command
 * line, a secret scanner reporting a key it found in public (its id names the scanner), an
 * approval rule an administrator defined (its id, e.g. `rule-3`), or single sign-on, deciding from
 * an identity provider's claims (src/access/sso).
 */
export type ActorKind = 'member' | 'admin' | 'system' | 'cli' | 'scanner' | 'rule' | 'sso';

export interface EventMetadata {
  actor: { kind: ActorKind; id: number | string | null };
  request_id: string;
  /** ISO-8601 instant the command was decided at. */
  time: string;
  /** Reason given with an administrator's decision. */
  reason?: string;
  /** Version of the event's data shape (events.ts); absent on events written before versions: 1. */
  schema_version?: number;
  /** SHA-256 of the event's canonical encoding (chain.ts); absent on events written before the chain. */
  digest?: string;
  /** The digest of the event before it in its stream; null for the first, absent before the chain. */
  prev_digest?: string | null;
}
