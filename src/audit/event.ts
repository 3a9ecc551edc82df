import { canonicalJson } from '../shared/domain/chain';
import { eventMetadataSchema } from '../shared/domain/events';
import { ActorKind } from '../shared/domain/metadata';
import { RecordedEvent } from '../stores/ports';
import { LeafFields, leafFieldsOf } from './proof/leaf';
import { readingOf } from './reading';

export interface Actor {
  kind: ActorKind;
  id: number | string | null;
  /** The member's or administrator's username; null for the system and the command line, or when unknown. */
  username: string | null;
}

/** One event as auditors read it: where it is in the log, who did what when, why, and its data without secrets. */
export interface AuditEvent {
  position: string;
  stream: string;
  revision: number;
  type: string;
  /** Null only for a stored event whose metadata holds no readable time (it is `invalid`). */
  time: string | null;
  /** Null only for a stored event whose metadata names no readable actor (it is `invalid`). */
  actor: Actor | null;
  /** What happened, in words, with its details, as the event's slice words it. */
  summary: string;
  /** An administrator's stated reason, or the reason the event itself carries (a rejection's, a scope request's purpose). */
  reason?: string;
  data: Record<string, unknown>;
  /** Why the stored event does not fit its schema, when it does not (its message never quotes a value). */
  invalid?: string;
  /** The event's id, what `GET /audit/proof?event=` takes. */
  id?: string;
  // What the chain covers besides the above (src/shared/domain/chain.ts, docs/audit.md "The proof").
  schema_version: number;
  request_id: string | null;
  /** SHA-256 of the whole stored data, when secret fields were removed from `data`. */
  secrets?: string;
  /** The data as it was written, secrets removed, when upcasting changed it: what the digest covers. */
  recorded_data?: unknown;
  /** The digest the event recorded; absent on events written before the chain. */
  digest?: string;
  /** The digest of the event before it in its stream; null for the first of a chain. */
  prev_digest?: string | null;
}

/**
 * The stored metadata's fields, or none when it is no object: an event written by other means than
 * this service (or damaged) may carry anything there, and an audit trail still lists it.
 */
export function storedMetadata(event: Pick<RecordedEvent, 'metadata'>): Record<string, unknown> {
  const metadata: unknown = event.metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
}

/** What an event did, in words: the wording its slice registered (src/shared/slice.ts, Registry.describe). */
export type Describe = (type: string, data: Record<string, unknown>) => string;

/**
 * An event as auditors read it, in its current shape (upcast from the version it was written in).
 * One that does not fit its schema is shown as stored, saying why: an audit trail has no gaps.
 */
export function auditEvent(stored: RecordedEvent, username: string | null, describe: Describe): AuditEvent {
  return auditEventOf(leafFieldsOf(stored), username, describe);
}

/**
 * The line of an event whose leaf holds these fields: every field is one of them or worded from
 * them, the username aside, so that a verifier holding the registry rebuilds the line from what
 * the leaf covers and compares (src/audit/proof/export-line.ts).
 */
export function auditEventOf(leaf: LeafFields, username: string | null, describe: Describe): AuditEvent {
  const { data, invalid } = readingOf(leaf, leaf.position);
  return {
    ...(leaf.id === null ? {} : { id: leaf.id }),
    position: leaf.position,
    stream: leaf.stream,
    revision: leaf.revision,
    type: leaf.type,
    ...asRecorded(leaf, username),
    summary: describe(leaf.type, data),
    ...(leaf.reason === null ? {} : { reason: leaf.reason }),
    data,
    ...(invalid === undefined ? {} : { invalid }),
    schema_version: leaf.schema_version,
    request_id: leaf.request_id,
    ...(leaf.secrets === null ? {} : { secrets: leaf.secrets }),
    ...(canonicalJson(leaf.data) === canonicalJson(data) ? {} : { recorded_data: leaf.data }),
    ...(leaf.digest === null ? {} : { digest: leaf.digest, prev_digest: leaf.prev_digest }),
  };
}

/**
 * When and by whom, as the stored metadata says, or null for what it does not say readably: an
 * event written by other means than this service (or damaged) is still listed, never guessed at.
 */
function asRecorded(
  { time, actor }: Pick<LeafFields, 'time' | 'actor'>,
  username: string | null,
): Pick<AuditEvent, 'time' | 'actor'> {
  const readTime = eventMetadataSchema.shape.time.safeParse(time);
  const readActor = eventMetadataSchema.shape.actor.safeParse(actor);
  return {
    time: readTime.success ? readTime.data : null,
    actor: readActor.success ? { kind: readActor.data.kind, id: readActor.data.id, username } : null,
  };
}
