import { ActorKind, EventMetadata } from '../domain/metadata';
import { AppendResult, EventStore, NewEvent } from '../../stores/ports';
import { eventIds } from '../../stores/event-ids';
import { DomainEvent } from '../domain/decider';
import { schemaVersion } from '../domain/events';
import { chainFieldsOf, digestOf } from '../domain/chain';
import type { TraceContext } from '../tracing';

/** Who asks, under which request, and when: everything a command needs that is not its data. */
export interface CommandContext {
  actor: { kind: ActorKind; id: number | string | null };
  requestId: string;
  now: Date;
  /** Reason given with an administrator's decision. */
  reason?: string;
  /** The span of the request that asks for the command, for the command's span; never recorded in an event. */
  trace?: TraceContext;
  /** The caller's idempotency key, when it gave one (src/shared/http/idempotency.ts); never recorded in an event. */
  idempotency?: IdempotentWrite;
}

export interface IdempotentWrite {
  /** The key as scoped to the caller: it names the events appended, so that a retry finds them. */
  key: string;
  /** The answer carries a secret shown once: a retry that finds the write recorded cannot answer it again. */
  secretInAnswer: boolean;
}

/**
 * The context to record a decision with, after reading the stream it appends to: dated no earlier
 * than the stream's last event. A request that lost a race to another writer, or read the stream
 * after a later request appended, or ran on an instance whose clock is behind, would otherwise
 * date its event before the one it follows, and a replay "as of" a time would leave out events
 * recorded before it in the stream.
 */
export function recordedAfter(ctx: CommandContext, last: { metadata: { time: string } } | undefined): CommandContext {
  if (!last) return ctx;
  const lastTime = Date.parse(last.metadata.time);
  return lastTime > ctx.now.getTime() ? { ...ctx, now: new Date(lastTime) } : ctx;
}

export function metadataOf(ctx: CommandContext): EventMetadata {
  return {
    actor: ctx.actor,
    request_id: ctx.requestId,
    time: ctx.now.toISOString(),
    ...(ctx.reason === undefined ? {} : { reason: ctx.reason }),
  };
}

/** Where a stream stands before an append: its last event's revision and digest, or nothing yet. */
export type StreamEnd = { expected: number; digest: string | null } | { expected: 'no_stream'; digest: null };

/** Whether the chain is on: the benchmark turns it off to measure what it costs; the service never does. */
let chaining = true;
export function setChaining(on: boolean): void {
  chaining = on;
}

/**
 * Where a stream read for a command ends: what its next append expects and links to. The expected
 * revision is the last event's own revision, not the number of events read, which differs once a
 * stream has been truncated (KurrentDB's $maxCount, $tb or a soft delete).
 */
export function streamEnd(last: { revision: number; metadata: { digest?: string } } | undefined): StreamEnd {
  // An event written before the chain has no digest: the first link after it starts a chain.
  return last === undefined
    ? { expected: 'no_stream', digest: null }
    : { expected: last.revision, digest: last.metadata.digest ?? null };
}

/**
 * The events as appended: their metadata, and each chained to the one before it in the stream
 * (src/shared/domain/chain.ts). Their revisions follow from the expected revision, so the chain
 * needs no read beyond the one the command made.
 */
export function toNewEvents(events: DomainEvent[], ctx: CommandContext, stream: string, end: StreamEnd): NewEvent[] {
  const metadata = metadataOf(ctx);
  const first = end.expected === 'no_stream' ? 0 : end.expected + 1;
  let prev = end.digest;
  return events.map((e, index) => {
    const event = {
      type: e.type,
      data: e.data as Record<string, unknown>,
      metadata: { ...metadata, schema_version: schemaVersion(e.type) } as EventMetadata,
    };
    if (!chaining) return event;
    event.metadata.prev_digest = prev;
    event.metadata.digest = digestOf(chainFieldsOf({ stream, revision: first + index, ...event }));
    prev = event.metadata.digest;
    return event;
  });
}

/**
 * Appends a command's events, chained to the stream's last event, with ids derived from the
 * caller's idempotency key (else the request id), the stream, the expected revision and each
 * event's index: an append the adapter retries after an unknown outcome, or the client sends again
 * under the same key, is recognised by the store and applied once.
 */
export function appendDecided(
  store: EventStore,
  stream: string,
  events: DomainEvent[],
  ctx: CommandContext,
  end: StreamEnd,
): Promise<AppendResult> {
  return store.append(
    stream,
    eventIds(stream, end.expected, toNewEvents(events, ctx, stream, end), ctx.idempotency?.key),
    end.expected,
  );
}
