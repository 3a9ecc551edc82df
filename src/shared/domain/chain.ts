import { createHash } from 'node:crypto';

/**
 * The chain of each stream (docs/audit.md, "The proof"): every event appended by a command records
 * `prev_digest`, the digest of the event before it in its stream, and its own `digest`, SHA-256
 * over the canonical encoding of what the event says. Changing a field, taking an event out or
 * reordering two shows as a link that no longer holds. This file is the one definition of that
 * encoding: the command handler, the checkpoints, the export and the verifier all use it.
 */

/**
 * Field names that hold a secret or what stands in for one: an API key's digest, a password's
 * hash. Matched by name at any depth, so that a field added later under such a name stays out of
 * every audit answer without anyone remembering this list.
 */
const SECRET_FIELD = /digest|hash|password|secret|apikey|api_key/i;

export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name);

/** The value with every secret field removed, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !isSecretField(name))
      .map(([name, field]) => [name, withoutSecrets(field)]),
  );
}

/** JSON with object keys sorted (by UTF-16 code units, as JavaScript sorts), no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
}

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** What an event's digest covers, every field always present (null when the event has none). */
export interface ChainFields {
  stream: string;
  revision: number;
  type: string;
  schema_version: number;
  /** The data as stored, secret fields removed: what an auditor may read. */
  data: unknown;
  /** SHA-256 of the canonical encoding of the whole stored data, when secret fields were removed; else null. */
  secrets: string | null;
  actor: { kind: unknown; id: unknown } | null;
  time: string | null;
  /** The administrator's stated reason (metadata), else the reason the data carries, else null. */
  reason: string | null;
  request_id: string | null;
  prev_digest: string | null;
}

/** An event as stored, or about to be: its place, type, data in the version written, and metadata. */
export interface ChainSource {
  stream: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  /** As stored: an event written by other means than this service may hold anything here. */
  metadata: object;
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The reason an event gives: its metadata's (an administrator's decision), else its data's. */
export function reasonOf(data: Record<string, unknown>, metadata: Record<string, unknown>): string | null {
  return stringOrNull(metadata.reason) ?? stringOrNull(data.reason);
}

/** The fields of a stored (or decided) event that its digest covers. */
export function chainFieldsOf(event: ChainSource): ChainFields {
  // An event written by other means than this service (or damaged) may hold no object here.
  const metadata = (typeof event.metadata === 'object' && event.metadata !== null ? event.metadata : {}) as Record<
    string,
    unknown
  >;
  const visible = withoutSecrets(event.data);
  const whole = canonicalJson(event.data);
  const actor = metadata.actor as { kind?: unknown; id?: unknown } | null | undefined;
  return {
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    schema_version: typeof metadata.schema_version === 'number' ? metadata.schema_version : 1,
    data: visible,
    secrets: canonicalJson(visible) === whole ? null : sha256Hex(whole),
    actor: typeof actor === 'object' && actor !== null ? { kind: actor.kind ?? null, id: actor.id ?? null } : null,
    time: stringOrNull(metadata.time),
    reason: reasonOf(event.data, metadata),
    request_id: stringOrNull(metadata.request_id),
    prev_digest: stringOrNull(metadata.prev_digest),
  };
}

/** SHA-256 (hex) of the canonical encoding of the fields, UTF-8. */
export const digestOf = (fields: ChainFields): string => sha256Hex(canonicalJson(fields));
