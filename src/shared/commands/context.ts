import { ActorKind, EventMetadata } from '../domain/metadata';
import { AppendResult, EventStore, ExpectedRevision, NewEvent } from '../../stores/ports';
import { eventIds } from '../../stores/event-ids';
import { DomainEvent } from '../domain/decider';
import { schemaVersion } from '../domain/events';

/** Who asks, under which request, and when: everything a command needs that is not its data. */
export interface CommandContext {
  actor: { kind: ActorKind; id: number | string | null };
  requestId: string;
  now: Date;
  /** Reason given with an administrator's decision. */
  reason?: string;
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

export function toNewEvents(events: DomainEvent[], ctx: CommandContext): NewEvent[] {
  const metadata = metadataOf(ctx);
  return events.map((e) => ({
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata: { ...metadata, schema_version: schemaVersion(e.type) },
  }));
}

/**
 * Appends a command's events with ids derived from its request id, the stream, the expected
 * revision and each event's index: an append the adapter retries after an unknown outcome, or
 * the client sends again under the same request id, is recognised by the store and applied once.
 */
export function appendDecided(
  store: EventStore,
  stream: string,
  events: DomainEvent[],
  ctx: CommandContext,
  expected: ExpectedRevision,
): Promise<AppendResult> {
  return store.append(stream, eventIds(stream, expected, toNewEvents(events, ctx)), expected);
}
