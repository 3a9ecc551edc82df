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
  type KurrentDBClient,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import {
  START,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../ports';
import { RESUBSCRIBE_BACKOFF, backoffDelay } from './backoff';
import { decodePosition, encodePosition } from './positions';
import { drainWithin, isSystemEvent, positionOf, toRecorded } from './reads';
import {
  isClientWrongExpectedVersion,
  toClientStreamState,
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
/** Every read and append answers within this, or fails: a request must not hang on an outage. */
export const OPERATION_TIMEOUT_MS = 10_000;

export class EventStoreDbEventStore implements EventStore {
  /** One per open subscription, so that close() can end them: dispose() alone may leave them hanging. */
  readonly #subscriptions = new Set<AbortController>();

  constructor(
    private readonly client: KurrentDBClient,
    private readonly options: EventStoreDbOptions = {},
  ) {}

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`append to ${stream}: no events given`);
    const streamState = toClientStreamState(expected);
    let result;
    try {
      result = await this.client.appendToStream(stream, events.map(toEventData), { streamState });
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
    let resolved;
    try {
      resolved = await drainWithin(read, OPERATION_TIMEOUT_MS, `read ${stream}`);
    } catch (error) {
      // The client raises a missing stream while the read is iterated, not when it is started.
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return resolved.flatMap(({ event }) => (event ? [toRecorded(event, encodePosition(positionOf(event)))] : []));
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let cursor = from;
    while (events.length < maxCount) {
      // One more than needed: a read from a position includes the event at that position.
      const requested = Math.min(maxCount - events.length, PAGE) + 1;
      const page = await drainWithin(
        this.client.readAll({ direction: FORWARDS, fromPosition: toReadPosition(cursor), maxCount: requested }),
        OPERATION_TIMEOUT_MS,
        'read $all',
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
      const page = await drainWithin(
        this.client.readAll({
          direction: BACKWARDS,
          fromPosition: cursor === undefined ? END : decodePosition(cursor),
          maxCount: PAGE,
        }),
        OPERATION_TIMEOUT_MS,
        'read the head of $all',
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

function toReadPosition(position: Position): ReadPosition {
  return position === START ? CLIENT_START : decodePosition(position);
}

function toEventData(event: NewEvent) {
  return jsonEvent({ type: event.type, data: event.data, metadata: { ...event.metadata } });
}
