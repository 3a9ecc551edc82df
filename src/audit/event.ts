import { decodeEvent, eventMetadataSchema, InvalidEvent } from '../shared/domain/events';
import { ActorKind } from '../shared/domain/metadata';
import { RecordedEvent } from '../stores/ports';

/**
 * Field names that hold a secret or what stands in for one: an API key's digest, a password's
 * hash. Matched by name at any depth, so that a field added later under such a name stays out of
 * every audit answer without anyone remembering this list.
 */
const SECRET_FIELD = /digest|hash|password|secret|apikey|api_key/i;

/** The event's data with every secret field removed, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !SECRET_FIELD.test(name))
      .map(([name, field]) => [name, withoutSecrets(field)]),
  );
}

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
}

/**
 * The stored metadata's fields, or none when it is no object: an event written by other means than
 * this service (or damaged) may carry anything there, and an audit trail still lists it.
 */
export function storedMetadata(event: Pick<RecordedEvent, 'metadata'>): Record<string, unknown> {
  const metadata: unknown = event.metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
}

function reasonOf(event: Pick<RecordedEvent, 'data' | 'metadata'>): string | undefined {
  const { reason } = storedMetadata(event);
  if (typeof reason === 'string') return reason;
  return typeof event.data.reason === 'string' ? event.data.reason : undefined;
}

/** What an event did, in words: the wording its slice registered (src/shared/slice.ts, Registry.describe). */
export type Describe = (type: string, data: Record<string, unknown>) => string;

/**
 * An event as auditors read it, in its current shape (upcast from the version it was written in).
 * One that does not fit its schema is shown as stored, saying why: an audit trail has no gaps.
 */
export function auditEvent(stored: RecordedEvent, username: string | null, describe: Describe): AuditEvent {
  const { event, invalid } = decoded(stored);
  const reason = reasonOf(event);
  const data = withoutSecrets(event.data) as Record<string, unknown>;
  return {
    position: event.position,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    ...asRecorded(storedMetadata(event), username),
    summary: describe(event.type, data),
    ...(reason === undefined ? {} : { reason }),
    data,
    ...(invalid === undefined ? {} : { invalid }),
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
