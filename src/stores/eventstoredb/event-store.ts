import { setTimeout as delay } from 'node:timers/promises';
import {
  BACKWARDS,
  END,
  FORWARDS,
  START as CLIENT_START,
  StreamNotFoundError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type ReadPosition,
  type RecordedEvent as ClientRecordedEvent,
} from '@eventstore/db-client';
import {
  START,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../ports';
import { RESUBSCRIBE_BACKOFF, backoffDelay } from './backoff';
import { decodePosition, encodePosition } from './positions';
import {
  isClientWrongExpectedVersion,
  toClientExpectedRevision,
  toPortRevision,
  toPortWrongExpectedVersion,
} from './revisions';

/** The subset of a pino logger the adapters use. */
export interface StoreLog {
  warn(obj: object, msg: string): void;
}

export interface EventStoreDbOptions {
  log?: StoreLog;
  /** Jitter source for resubscribe back-off; Math.random unless given. */
  random?: () => number;
}

/** Events read from $all per request; the client filters system events out afterwards. */
const PAGE = 500;
/** Events the client's subscription stream holds before back-pressure reaches the server. */
const SUBSCRIPTION_BUFFER = 64;

export class UnreadableEventError extends Error {
  constructor(event: { streamId: string; revision: bigint }, why: string) {
    super(`event ${event.streamId}@${event.revision} cannot be read: ${why}`);
    this.name = 'UnreadableEventError';
  }
}

export class EventStoreDbEventStore implements EventStore {
  /** One per open subscription, so that close() can end them: dispose() alone may leave them hanging. */
  readonly #subscriptions = new Set<AbortController>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: EventStoreDbOptions = {},
  ) {}

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`append to ${stream}: no events given`);
    const expectedRevision = toClientExpectedRevision(expected);
    let result;
    try {
      result = await this.client.appendToStream(stream, events.map(toEventData), { expectedRevision });
    } catch (error) {
      if (isClientWrongExpectedVersion(error)) throw toPortWrongExpectedVersion(error, expected);
      throw error;
    }
    if (!result.position) throw new Error(`append to ${stream}: the server returned no log position`);
    return {
      nextExpectedRevision: toPortRevision(result.nextExpectedRevision),
      position: encodePosition(result.position),
    };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      // Reading backwards from the client's default (START) would return at most the first event.
      fromRevision: backwards ? END : CLIENT_START,
      ...(options.maxCount !== undefined && { maxCount: options.maxCount }),
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecorded(resolved.event, encodePosition(positionOf(resolved.event))));
      }
    } catch (error) {
      // The client raises a missing stream while the read is iterated, not when it is started.
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let cursor = from;
    while (events.length < maxCount) {
      // One more than needed: a read from a position includes the event at that position.
      const requested = Math.min(maxCount - events.length, PAGE) + 1;
      const page = await drain(
        this.client.readAll({ direction: FORWARDS, fromPosition: toReadPosition(cursor), maxCount: requested }),
      );
      const before = cursor;
      for (const { event } of page) {
        if (!event) continue;
        const position = encodePosition(event.position);
        if (position <= cursor) continue;
        cursor = position;
        if (isSystemEvent(event)) continue;
        events.push(toRecorded(event, position));
        if (events.length === maxCount) break;
      }
      if (page.length < requested || cursor === before) break;
    }
    return events;
  }

  async headPosition(): Promise<Position> {
    let cursor: Position | undefined;
    for (;;) {
      const page = await drain(
        this.client.readAll({
          direction: BACKWARDS,
          fromPosition: cursor === undefined ? END : decodePosition(cursor),
          maxCount: PAGE,
        }),
      );
      const before = cursor;
      for (const { event } of page) {
        if (!event) continue;
        const position = encodePosition(event.position);
        if (cursor !== undefined && position >= cursor) continue;
        if (!isSystemEvent(event)) return position;
        cursor = position;
      }
      if (page.length < PAGE || cursor === before) return START;
    }
  }

  /**
   * Pulls from the client's subscription one event at a time, so events are handled strictly in
   * order and the client buffers at most SUBSCRIPTION_BUFFER events before gRPC flow control
   * holds the server back. The client never re-establishes a dropped subscription: this does,
   * after a back-off, from the last event delivered (subscription positions are exclusive).
   */
  async *subscribeAll(from: Position, signal?: AbortSignal): AsyncGenerator<RecordedEvent> {
    const closing = new AbortController();
    this.#subscriptions.add(closing);
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    const random = this.options.random ?? Math.random;
    let resumeAfter = from;
    let attempt = 0;
    try {
      while (!stop.aborted) {
        const subscription = this.client.subscribeToAll(
          { fromPosition: toReadPosition(resumeAfter), filter: excludeSystemEvents() },
          { highWaterMark: SUBSCRIPTION_BUFFER },
        );
        subscription.once('confirmation', () => (attempt = 0));
        // A cancelled gRPC call does not always end the client's stream; destroying it does.
        const end = () => subscription.destroy();
        stop.addEventListener('abort', end, { once: true });
        let dropped: unknown;
        try {
          const iterator = subscription[Symbol.asyncIterator]();
          for (;;) {
            const next = await pull(iterator);
            if ('dropped' in next) {
              dropped = next.dropped;
              break;
            }
            if (next.done) break;
            const { event } = next.value;
            // The server-side filter already excludes $-types; system streams are excluded too,
            // as some server versions wrote checkpoint events without the $ prefix.
            if (!event || isSystemEvent(event)) continue;
            const position = encodePosition(event.position);
            const recorded = toRecorded(event, position);
            resumeAfter = position;
            yield recorded;
          }
        } finally {
          stop.removeEventListener('abort', end);
          await release(subscription);
        }
        if (stop.aborted) return;
        const wait = backoffDelay(attempt++, RESUBSCRIBE_BACKOFF, random);
        this.options.log?.warn(
          { err: dropped, resumeAfter, retryInMs: Math.round(wait) },
          'EventStoreDB subscription to $all dropped; resubscribing',
        );
        // Rejects only when `stop` aborts, which the loop condition then handles.
        await delay(wait, undefined, { signal: stop }).catch(() => undefined);
      }
    } finally {
      this.#subscriptions.delete(closing);
    }
  }

  async close(): Promise<void> {
    for (const subscription of this.#subscriptions) subscription.abort();
    await this.client.dispose();
  }
}

type Pulled = IteratorResult<AllStreamResolvedEvent> | { dropped: unknown };

/** Separates the subscription failing from everything else that may throw in the loop. */
async function pull(iterator: AsyncIterator<AllStreamResolvedEvent>): Promise<Pulled> {
  try {
    return await iterator.next();
  } catch (dropped) {
    return { dropped };
  }
}

async function release(subscription: AllStreamSubscription): Promise<void> {
  subscription.destroy();
  // Cancels the gRPC call; it rejects when the call never started, which needs no cancelling.
  await subscription.unsubscribe().catch(() => undefined);
}

async function drain<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

function toReadPosition(position: Position): ReadPosition {
  return position === START ? CLIENT_START : decodePosition(position);
}

/** Events the server writes for itself; none of them is ever the port's. */
function isSystemEvent(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

function toEventData(event: NewEvent) {
  return jsonEvent({ type: event.type, data: event.data, metadata: { ...event.metadata } });
}

function positionOf(event: ClientRecordedEvent): NonNullable<ClientRecordedEvent['position']> {
  if (!event.position) {
    throw new UnreadableEventError(event, 'the server returned no log position (servers before 22.6 do not)');
  }
  return event.position;
}

function toRecorded(event: ClientRecordedEvent, position: Position): RecordedEvent {
  if (!event.isJson) throw new UnreadableEventError(event, 'its content is not JSON');
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UnreadableEventError(event, 'its data is not a JSON object');
  }
  return {
    stream: event.streamId,
    revision: toPortRevision(event.revision),
    position,
    type: event.type,
    data: data as Record<string, unknown>,
    metadata: event.metadata as unknown as EventMetadata,
  };
}
