import {
  BACKWARDS,
  END,
  FORWARDS,
  START as CLIENT_START,
  StreamNotFoundError,
  type KurrentDBClient,
  type Position as ClientPosition,
} from '@kurrent/kurrentdb-client';
import {
  START,
  StreamDeleted,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscriptionObserver,
} from '../ports';
import { DEFAULT_RETRY, appendWithRetry, isDeletedStream, toEventData, type AppendRetryDeps } from './append';
import { decodePosition, encodePosition } from './positions';
import { isServiceEvent, positionOf, toRecorded } from './reads';
import {
  isClientWrongExpectedVersion,
  toClientStreamState,
  toPortRevision,
  toPortWrongExpectedVersion,
} from './revisions';
import { followAll, refusedPosition, toReadPosition, type StoreLog } from './subscription';
import { OPERATION_TIMEOUT_MS, drainWithin, within } from './timeouts';

export type { StoreLog } from './subscription';

export interface EventStoreDbOptions {
  log?: StoreLog;
  /** Jitter source for resubscribe back-off; Math.random unless given. */
  random?: () => number;
  /** How appends with an unknown outcome are retried. */
  retry?: AppendRetryDeps;
}

/** Events read from $all per request; the client filters system events out afterwards. */
const PAGE = 500;

/** KurrentDB (or EventStoreDB 22.6+) through @kurrent/kurrentdb-client. */
export class EventStoreDbEventStore implements EventStore {
  /** One per open subscription, so that close() can end them: dispose() alone may leave them hanging. */
  readonly #subscriptions = new Set<AbortController>();

  constructor(
    private readonly client: KurrentDBClient,
    private readonly options: EventStoreDbOptions = {},
  ) {}

  /**
   * The events keep their ids (or get one, once) for every retry of an append whose outcome is
   * unknown, so the server recognises a retry of a write it already committed.
   */
  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`append to ${stream}: no events given`);
    const streamState = toClientStreamState(expected);
    const data = toEventData(events);
    const retry = this.options.retry ?? {
      ...DEFAULT_RETRY,
      onRetry: (err: unknown, attempt: number, waitMs: number) =>
        this.options.log?.warn({ err, stream, attempt, retryInMs: Math.round(waitMs) }, 'append outcome unknown; retrying with the same event ids'),
    };
    let result;
    try {
      result = await appendWithRetry(
        stream,
        () =>
          within(
            this.client.appendToStream(stream, data, { streamState, deadline: OPERATION_TIMEOUT_MS }),
            OPERATION_TIMEOUT_MS,
            `append to ${stream}`,
          ),
        retry,
      );
    } catch (error) {
      if (isClientWrongExpectedVersion(error)) throw toPortWrongExpectedVersion(error, expected);
      throw error;
    }
    const position = result.position ?? (await this.positionOfEvent(stream, data[data.length - 1]?.id ?? ''));
    return { nextExpectedRevision: toPortRevision(result.nextExpectedRevision), position: encodePosition(position) };
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
      if (isDeletedStream(error)) throw new StreamDeleted(stream);
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
      ).catch((error: unknown) => {
        throw refusedPosition(error, cursor) ?? error;
      });
      const before = cursor;
      for (const { event } of page) {
        if (!event) continue;
        const position = encodePosition(event.position);
        if (position <= cursor) continue;
        cursor = position;
        if (!isServiceEvent(event)) continue;
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
        if (isServiceEvent(event)) return position;
        cursor = position;
      }
      if (page.length < PAGE || cursor === before) return START;
    }
  }

  async *subscribeAll(from: Position, signal?: AbortSignal, observer?: SubscriptionObserver): AsyncGenerator<RecordedEvent> {
    const closing = new AbortController();
    this.#subscriptions.add(closing);
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    try {
      yield* followAll(this.client, from, stop, () => this.headPosition(), { ...this.options, observer });
    } finally {
      this.#subscriptions.delete(closing);
    }
  }

  async close(): Promise<void> {
    for (const subscription of this.#subscriptions) subscription.abort();
    await this.client.dispose();
  }

  /**
   * Servers answer a write they recognise as a retry without its log position on some versions:
   * the event, found by its id among the stream's last events, has it.
   */
  private async positionOfEvent(stream: string, id: string): Promise<ClientPosition> {
    const read = this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: PAGE });
    for (const { event } of await drainWithin(read, OPERATION_TIMEOUT_MS, `read ${stream}`)) {
      if (event?.id === id) return positionOf(event);
    }
    throw new Error(`append to ${stream}: the server returned no log position, and event ${id} is not among the last ${PAGE}`);
  }
}
