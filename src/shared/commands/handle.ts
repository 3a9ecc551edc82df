import { setTimeout as sleep } from 'node:timers/promises';
import { ATTR_DB_OPERATION_NAME } from '@opentelemetry/semantic-conventions';
import { Decider, DomainEvent, fold } from '../domain/decider';
import { decodeEvent, Recorded } from '../domain/events';
import { EventStore, ReadStreamOptions, WrongExpectedVersion } from '../../stores/ports';
import { eventId, writtenBy } from '../../stores/event-ids';
import { appendDecided, CommandContext, IdempotentWrite, recordedAfter, streamEnd } from './context';
import { ConcurrencyConflict, SecretAlreadyIssued } from './errors';
import { inSpan } from '../tracing';

const ATTEMPTS = 8;

/**
 * Load, decide, append with the expected revision; on a concurrent write, do it all again
 * against the new state. `decide` may throw a DomainError, which appends nothing. Answers the
 * events appended, the global position of the last one (null when none was): what a reader
 * waits for, and the aggregate's state right after them, which a later write may already have
 * moved on in the read models.
 */
export function handle<Command, Event extends DomainEvent, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  ctx: CommandContext,
): Promise<Decision<Event, State>> {
  return inSpan(spanName(command, stream), commandAttributes(stream, ctx), ctx.trace, (_, here) =>
    retryOnConflict(stream, ATTEMPTS, async () => {
      const recorded = await inSpan('read', { [ATTR_DB_OPERATION_NAME]: 'read_stream' }, here, () =>
        loadStream<Event>(store, stream),
      );
      const before = fold(decider, recorded);
      const recordedEarlier = ctx.idempotency && earlierWrite(ctx.idempotency, stream, recorded);
      if (recordedEarlier) return { events: [], position: recordedEarlier, state: before };
      const events = await inSpan('decide', {}, here, (span) => {
        const decided = decider.decide(command, before);
        span.setAttribute(
          'platform.events',
          decided.map((e) => e.type),
        );
        return decided;
      });
      if (events.length === 0) return { events, position: null, state: before };
      const { position } = await inSpan('append', { [ATTR_DB_OPERATION_NAME]: 'append' }, here, () =>
        appendDecided(store, stream, events, recordedAfter(ctx, recorded.at(-1)), streamEnd(recorded.at(-1))),
      );
      return { events, position, state: events.reduce(decider.evolve, before) };
    }),
  );
}

/**
 * The position of the last event an earlier request under the same idempotency key appended to
 * the stream, when its answer was lost (a 503 after the append took effect): the retry answers from
 * it instead of deciding again. An answer that carried a secret cannot be given again.
 */
function earlierWrite(
  write: IdempotentWrite,
  stream: string,
  recorded: readonly Recorded<DomainEvent>[],
): string | undefined {
  const first = writtenBy(write.key, stream, recorded);
  if (!first) return undefined;
  if (write.secretInAnswer) throw new SecretAlreadyIssued();
  const expected = first.revision === 0 ? 'no_stream' : first.revision - 1;
  const start = recorded.indexOf(first);
  let last = first;
  for (let index = 1; recorded[start + index]?.id === eventId(write.key, stream, expected, index); index++)
    last = recorded[start + index]!;
  return last.position;
}

/** The aggregate a stream belongs to (`credential` of `credential-42`): a span names no member. */
const categoryOf = (stream: string) => stream.split('-')[0] ?? stream;

/** The command's type (`ApproveCredential`), which every command of the service has. */
const spanName = (command: unknown, stream: string): string => {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : `command ${categoryOf(stream)}`;
};

const commandAttributes = (stream: string, ctx: CommandContext) => ({
  'platform.aggregate': categoryOf(stream),
  'platform.request_id': ctx.requestId,
});

/**
 * Reads a stream for folding: every event upcast to its current version and validated, so a
 * stored event the aggregate cannot fold stops the command with InvalidEvent.
 */
export async function loadStream<Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  options?: ReadStreamOptions,
): Promise<Recorded<Event>[]> {
  return (await store.readStream(stream, options)).map(decodeEvent) as unknown as Recorded<Event>[];
}

export interface Decision<Event, State = unknown> {
  events: Event[];
  position: string | null;
  /** The aggregate right after `events`. */
  state: State;
}

/**
 * Runs a read-then-append attempt again, after a jittered pause, each time another writer got to
 * the stream first; after `attempts` losses it gives up with ConcurrencyConflict.
 */
export async function retryOnConflict<T>(stream: string, attempts: number, attempt: () => Promise<T>): Promise<T> {
  for (let lost = 1; ; lost++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof WrongExpectedVersion)) throw err;
      if (lost >= attempts) throw new ConcurrencyConflict(stream);
      // Jittered so that writers that collided do not collide again in lock-step.
      await sleep(Math.random() * Math.min(50, 2 ** lost));
    }
  }
}

/**
 * Creates an aggregate's stream: decides against the initial state and appends with `no_stream`.
 * A stream that already exists raises WrongExpectedVersion, for the caller to settle.
 */
export async function createStream<Command, Event extends DomainEvent, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  ctx: CommandContext,
): Promise<string> {
  return inSpan(spanName(command, stream), commandAttributes(stream, ctx), ctx.trace, async (_, here) => {
    const events = await inSpan('decide', {}, here, () => decider.decide(command, decider.initialState));
    return (
      await inSpan('append', { [ATTR_DB_OPERATION_NAME]: 'append' }, here, () =>
        appendDecided(store, stream, events, ctx, streamEnd(undefined)),
      )
    ).position;
  });
}
