import { canonicalJson, chainFieldsOf, withoutSecrets } from '../shared/domain/chain';
import { decodeEvent, eventMetadataSchema, InvalidEvent } from '../shared/domain/events';
import { ActorKind } from '../shared/domain/metadata';
import { RecordedEvent } from '../stores/ports';

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
  const { event, invalid } = decoded(stored);
  const chain = chainFieldsOf(stored);
  const data = withoutSecrets(event.data) as Record<string, unknown>;
  const { digest, prev_digest } = storedMetadata(stored);
  return {
    ...(stored.id === undefined ? {} : { id: stored.id }),
    position: event.position,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    ...asRecorded(storedMetadata(event), username),
    summary: describe(event.type, data),
    ...(chain.reason === null ? {} : { reason: chain.reason }),
    data,
    ...(invalid === undefined ? {} : { invalid }),
    schema_version: chain.schema_version,
    request_id: chain.request_id,
    ...(chain.secrets === null ? {} : { secrets: chain.secrets }),
    ...(canonicalJson(chain.data) === canonicalJson(data) ? {} : { recorded_data: chain.data }),
    ...(typeof digest === 'string' ? { digest, prev_digest: typeof prev_digest === 'string' ? prev_digest : null } : {}),
  };
}

/**
 * When and by whom, as the stored metadata says, or null for what it does not say readably: an
 * event written by other means than this service (or damaged) is still listed, never guessed at.
 */
function asRecorded({ time, actor }: Record<string, unknown>, username: string | null): Pick<AuditEvent, 'time' | 'actor'> {
  const readTime = eventMetadataSchema.shape.time.safeParse(time);
  const readActor = eventMetadataSchema.shape.actor.safeParse(actor);
  return {
    time: readTime.success ? readTime.data : null,
    actor: readActor.success ? { kind: readActor.data.kind, id: readActor.data.id, username } : null,
  };
}

function decoded(event: RecordedEvent): { event: RecordedEvent; invalid?: string } {
  try {
    return { event: decodeEvent(event) };
  } catch (err) {
    if (!(err instanceof InvalidEvent)) throw err;
    return { event, invalid: err.message };
  }
}
