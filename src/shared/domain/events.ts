import { z } from 'zod';
import type { RecordedEvent } from '../../stores/ports';
import type { EventMetadata } from './metadata';
import type { DomainEvent } from './decider';
/**
 * Every event the service appends, by type: the zod schema of its `data` in the current version,
 * and the upcasters that bring older versions up to it. Events are checked when they are read,
 * not only when they are decided, so that a stored event the code cannot fold stops a command or
 * a projection with a clear error instead of turning into a wrong state.
 */

/** An aggregate's events: type → schema of `data`. Each aggregate file exports one. */
export type EventSchemas = Record<string, z.ZodObject>;

/** The events of an aggregate as a union of `{ type, data }`, typed from its schemas so the two cannot drift. */
export type EventOf<Schemas extends EventSchemas> = {
  [Type in keyof Schemas & string]: DomainEvent<Type, z.infer<Schemas[Type]>>;
}[keyof Schemas & string];

/** An event of an aggregate as it was stored: its own type and data, plus where and when. */
export type Recorded<Event extends DomainEvent> = Event & Omit<RecordedEvent, 'type' | 'data'>;

/** The event types of an aggregate, from its schemas. */
export function typesOf<Schemas extends EventSchemas>(schemas: Schemas): (keyof Schemas & string)[] {
  return Object.keys(schemas);
}

/** Turns the data of one version of an event into the data of the next. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/** Per type, upcasters[i] turns version i + 1 into version i + 2; the last one's output is current. */
export type EventUpcasters = Record<string, Upcaster[]>;

export const eventMetadataSchema = z.object({
  actor: z.object({
    kind: z.enum(['member', 'admin', 'system', 'cli', 'scanner', 'rule', 'sso']),
    id: z.union([z.number(), z.string(), z.null()]),
  }),
  request_id: z.string(),
  time: z.iso.datetime(),
  reason: z.string().optional(),
  schema_version: z.int().min(1).optional(),
  digest: z.string().optional(),
  prev_digest: z.string().nullable().optional(),
});

// Compile-time: the schema describes exactly the metadata the store ports declare.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type _MetadataMatchesPorts = Assert<Same<z.infer<typeof eventMetadataSchema>, EventMetadata>>;

/** An event as its slice registers it: the schema of its `data` now, and the upcasters from older versions. */
export interface EventCodec {
  schema: z.ZodObject;
  upcasters?: Upcaster[];
}

/**
 * The events the service knows, as the composition root (src/compose.ts) gathers them from its
 * slices and hands them over once at start with useEventCodecs: the kernel names no event.
 */
let codecs: ReadonlyMap<string, EventCodec> = new Map();

/** Installs the events every slice registered; called by the composition root before anything is read or appended. */
export function useEventCodecs(registered: ReadonlyMap<string, EventCodec>): void {
  codecs = registered;
}

/** Every event type the service knows. */
export function knownEventTypes(): string[] {
  return [...codecs.keys()];
}

/** The version new events of this type are appended with. */
export function schemaVersion(type: string): number {
  const codec = codecs.get(type);
  if (!codec)
    throw new Error(`no schema for event type ${type}: register it in the events of its slice (docs/architecture.md)`);
  return (codec.upcasters?.length ?? 0) + 1;
}

export interface EventIssue {
  path: PropertyKey[];
  message: string;
}

/** A stored event that does not fit its schema, or whose type the code does not know. */
export class InvalidEvent extends Error {
  readonly type: string;
  readonly stream: string;
  readonly position: string;

  constructor(
    event: Pick<RecordedEvent, 'type' | 'stream' | 'revision' | 'position'>,
    readonly issues: EventIssue[],
  ) {
    // Paths and zod's messages only: they never quote the value, so no digest can leak here.
    const listed = issues.map((i) => `${i.path.map(String).join('.') || '(event)'}: ${i.message}`).join('; ');
    super(
      `event ${event.type} #${event.revision} of ${event.stream} at position ${event.position} is invalid: ${listed}`,
    );
    this.name = 'InvalidEvent';
    this.type = event.type;
    this.stream = event.stream;
    this.position = event.position;
  }
}

const under = (prefix: string, issues: z.core.$ZodIssue[]): EventIssue[] =>
  issues.map((issue) => ({ path: [prefix, ...issue.path], message: issue.message }));

const upcastWith = (
  upcasters: readonly Upcaster[],
  data: Record<string, unknown>,
  written: number,
): Record<string, unknown> => {
  let upcast = data;
  for (let version = written; version <= upcasters.length; version++) upcast = upcasters[version - 1]!(upcast);
  return upcast;
};

/** Data written in version `written` of its type, brought up to the current version; unchecked. */
export function upcastData(type: string, data: Record<string, unknown>, written: number): Record<string, unknown> {
  return upcastWith(codecs.get(type)?.upcasters ?? [], data, written);
}

/**
 * A stored event in the current shape: its data upcast from the version it was written in
 * (`metadata.schema_version`, absent = 1), then validated. Throws InvalidEvent otherwise.
 */
export function decodeEvent(recorded: RecordedEvent): RecordedEvent {
  const codec = codecs.get(recorded.type);
  if (!codec) {
    throw new InvalidEvent(recorded, [
      { path: ['type'], message: 'no event of this type is known to this version of the service' },
    ]);
  }
  const metadata = eventMetadataSchema.safeParse(recorded.metadata);
  if (!metadata.success) throw new InvalidEvent(recorded, under('metadata', metadata.error.issues));

  const upcasters = codec.upcasters ?? [];
  const written = metadata.data.schema_version ?? 1;
  const current = upcasters.length + 1;
  if (written > current) {
    throw new InvalidEvent(recorded, [
      {
        path: ['metadata', 'schema_version'],
        message: `version ${written} is newer than this service knows (${current})`,
      },
    ]);
  }
  const data = codec.schema.safeParse(upcastWith(upcasters, recorded.data, written));
  if (!data.success) throw new InvalidEvent(recorded, under('data', data.error.issues));
  // zod's results are fresh objects, ours to complete; and the event is built field by field, not
  // spread: a rebuild decodes a million events, and each copy more is garbage to collect.
  metadata.data.schema_version = current;
  const decoded: RecordedEvent = {
    stream: recorded.stream,
    revision: recorded.revision,
    position: recorded.position,
    type: recorded.type,
    data: data.data,
    metadata: metadata.data,
  };
  if (recorded.id !== undefined) decoded.id = recorded.id;
  return decoded;
}
