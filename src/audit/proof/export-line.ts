import { z } from 'zod';
import { canonicalJson, ChainFields } from '../../shared/domain/chain';
import { auditEventOf, Describe } from '../event';
import { auditEventSchema } from '../event-schema';
import { LeafFields } from './leaf';

/**
 * An event line of an export read back into the fields its leaf covers, then rebuilt from them
 * the way the export builds it (src/audit/event.ts): a line that shows anything the leaf's fields
 * do not make (a summary reworded, data that is not the upcast of what was recorded, a field the
 * export never writes) is refused, so nothing a reader sees goes unchecked.
 */

// The contract's line, with no field besides its own. Time and actor are read as shown (below).
const eventLineSchema = auditEventSchema.extend({ time: z.string().nullable() }).strict();

export type EventLine = z.infer<typeof eventLineSchema>;

/** The line's shape, or what is wrong with it, in words. */
export function eventLineOf(value: unknown): EventLine | string {
  const parsed = eventLineSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return `it holds a field no export line has (${issue.keys.join(', ')})`;
  return `its ${issue.path.join('.') || 'shape'} is not as an export writes it (${issue.message})`;
}

/** The fields the line's leaf covers, as the line shows them. */
export function leafFieldsOfLine(e: EventLine): LeafFields {
  return {
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    schema_version: e.schema_version,
    // Present only when upcasting changed it; the rebuilt line then shows the upcast as data.
    data: e.recorded_data === undefined ? e.data : e.recorded_data,
    secrets: e.secrets ?? null,
    actor: e.actor ? { kind: e.actor.kind, id: e.actor.id } : null,
    time: e.time,
    reason: e.reason ?? null,
    request_id: e.request_id,
    prev_digest: e.prev_digest ?? null,
    id: e.id ?? null,
    position: e.position,
    digest: e.digest ?? null,
  };
}

/** What the event's digest covers: its leaf's fields but its place in the log and its own digest. */
export function chainFieldsOfLeaf({
  id: _id,
  position: _position,
  digest: _digest,
  ...chain
}: LeafFields): ChainFields {
  return chain;
}

/**
 * The first field the line shows otherwise than its leaf's fields make it, or null. The username
 * is taken as shown: no leaf holds it, the export's signed head covers it (./verify.ts).
 */
export function fieldShownOtherwise(line: EventLine, leaf: LeafFields, describe: Describe): string | null {
  const rebuilt = auditEventOf(leaf, line.actor?.username ?? null, describe) as unknown as Record<string, unknown>;
  const shown = line as unknown as Record<string, unknown>;
  for (const field of new Set([...Object.keys(rebuilt), ...Object.keys(shown)])) {
    if (canonicalJson(rebuilt[field]) !== canonicalJson(shown[field])) return field;
  }
  return null;
}
