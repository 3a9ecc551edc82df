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
import {
  DEFAULT_RETRY,
  appendWithRetry,
  isDeletedStream,
  sendAppend,
  toEventData,
  type AppendRetryDeps,
} from './append';
import { asStoreFailure } from './failures';
import { decodePosition, encodePosition } from './positions';
import { isServiceEvent, positionOf, toRecorded } from './reads';
import {
  isClientWrongExpectedVersion,
  toClientStreamState,
  toPortRevision,
  toPortWrongExpectedVersion,
} from './revisions';
import { followAll, refusedPosition, toReadPosition, type LivenessProbe, type StoreLog } from './subscription';
import { OPERATION_TIMEOUT_MS, drainWithin, within } from './timeouts';
import { budgetLeftMs } from '../budget';

export type { StoreLog } from './subscription';

export interface EventStoreDbOptions {
  log?: StoreLog;
  /** Jitter source for resubscribe back-off; Math.random unless given. */
  random?: () => number;
  /** How appends with an unknown outcome are retried. */
  retry?: AppendRetryDeps;
  /** Each read and append answers within this or fails; OPERATION_TIMEOUT_MS unless given. */
  operationTimeoutMs?: number;
  /** How an open subscription checks that the server still answers; LIVENESS_PROBE unless given. */
  probe?: LivenessProbe;
  /** How long a refused position is retried before it is taken for good; REFUSAL_GRACE_MS unless given. */
  refusalGraceMs?: number;
}

/** Events read from $all per request; the client filters system events out afterwards. */
const PAGE = 500;

/**
 * Every read asks the leader: the service reads back what it appended and compares checkpoints
 * with the head of the log, which a lagging follower (one just left behind by a failover) would
 * answer from an older log.
 */
const LEADER = { requiresLeader: true } as const;

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
        this.options.log?.warn(
          { err, stream, attempt, retryInMs: Math.round(waitMs) },
          'append outcome unknown; retrying with the same event ids',
        ),
    };
    let result;
    try {
      result = await appendWithRetry(
        stream,
        (remainingMs) => {
          const limit = Math.max(1, Math.min(this.timeoutMs, remainingMs));
          return within(
            sendAppend(this.client, stream, data, { streamState, deadline: limit }),
            limit,
            `append to ${stream}`,
          );
        },
        retry,
      );
    } catch (error) {
      if (isClientWrongExpectedVersion(error)) throw toPortWrongExpectedVersion(error, expected);
      throw error;
    }
    const position =
      result.position ??
      (await this.positionOfEvent(stream, data[data.length - 1]?.id ?? '').catch((error: unknown) => {
        throw asStoreFailure(error, `append to ${stream}`);
      }));
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
      ...LEADER,
    });
    let resolved;
    try {
      resolved = await drainWithin(read, this.timeoutMs, `read ${stream}`);
    } catch (error) {
      // The client raises a missing stream while the read is iterated, not when it is started.
      if (error instanceof StreamNotFoundError) return [];
      if (isDeletedStream(error)) throw new StreamDeleted(stream);
      throw asStoreFailure(error, `read ${stream}`);
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
        this.client.readAll({
          direction: FORWARDS,
          fromPosition: toReadPosition(cursor),
          maxCount: requested,
          ...LEADER,
        }),
        this.timeoutMs,
        'read $all',
      ).catch((error: unknown) => {
        throw refusedPosition(error, cursor) ?? asStoreFailure(error, 'read $all');
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
          ...LEADER,
        }),
        this.timeoutMs,
        'read the head of $all',
      ).catch((error: unknown) => {
        throw asStoreFailure(error, 'read the head of $all');
      });
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

  async *subscribeAll(
    from: Position,
    signal?: AbortSignal,
    observer?: SubscriptionObserver,
  ): AsyncGenerator<RecordedEvent> {
    const closing = new AbortController();
    this.#subscriptions.add(closing);
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    try {
      const ping = (timeoutMs: number) =>
        drainWithin(
          this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, ...LEADER }),
          timeoutMs,
          'liveness probe',
        );
      yield* followAll(this.client, from, stop, () => this.headPosition(), { ...this.options, observer }, ping);
    } finally {
      this.#subscriptions.delete(closing);
    }
  }

  /** Each call's limit: the adapter's own, or what is left of the request's store budget when less. */
  private get timeoutMs(): number {
    return Math.max(
      1,
      Math.min(this.options.operationTimeoutMs ?? OPERATION_TIMEOUT_MS, budgetLeftMs() ?? Number.POSITIVE_INFINITY),
    );
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
    const read = this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: PAGE, ...LEADER });
    for (const { event } of await drainWithin(read, this.timeoutMs, `read ${stream}`)) {
      if (event?.id === id) return positionOf(event);
    }
    throw new Error(
      `append to ${stream}: the server returned no log position, and event ${id} is not among the last ${PAGE}`,
    );
  }
}
