import { ChainFields, isSecretField, withoutSecrets } from '../shared/domain/chain';
import { decodeEvent, InvalidEvent, upcastData } from '../shared/domain/events';
import { RecordedEvent } from '../stores/ports';

/**
 * What an auditor reads of an event besides what it recorded: its data in the current shape, and
 * why it does not fit its schema when it does not. Both are worded from the fields its leaf covers
 * (src/audit/proof/leaf.ts), never from secrets no auditor sees, so that a verifier holding the
 * slices' registry recomputes them from an export line and refuses a line that shows otherwise.
 */
export interface Reading {
  data: Record<string, unknown>;
  invalid?: string;
}

const isSecretIssue = (issue: InvalidEvent['issues'][number]): boolean =>
  issue.path.some((p) => typeof p === 'string' && isSecretField(p));

/** The stored event as the covered fields tell it: the data without secrets, the metadata the chain keeps. */
function visibleEvent(fields: ChainFields, position: string): RecordedEvent {
  const actor = fields.actor === null ? {} : { actor: fields.actor };
  const requestId = fields.request_id === null ? {} : { request_id: fields.request_id };
  const time = fields.time === null ? {} : { time: fields.time };
  return {
    stream: fields.stream,
    revision: fields.revision,
    position,
    type: fields.type,
    data: fields.data as Record<string, unknown>,
    // As stored, it may lack any of these: decodeEvent says which.
    metadata: { ...actor, ...requestId, ...time, schema_version: fields.schema_version } as RecordedEvent['metadata'],
  };
}

/**
 * The reading of an event whose covered fields are these. A field the schema asks for but the
 * chain removed as secret (a key's digest) is no fault anyone can see: the `secrets` digest binds it.
 */
export function readingOf(fields: ChainFields, position: string): Reading {
  const event = visibleEvent(fields, position);
  try {
    return { data: withoutSecrets(decodeEvent(event).data) as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof InvalidEvent)) throw err;
    const seen = err.issues.filter((issue) => !isSecretIssue(issue));
    if (seen.length === 0)
      return {
        data: withoutSecrets(upcastData(event.type, event.data, fields.schema_version)) as Record<string, unknown>,
      };
    return { data: event.data, invalid: new InvalidEvent(event, seen).message };
  }
}
