import { setTimeout as sleep } from 'node:timers/promises';
import { Decider, DomainEvent, fold } from '../domain/decider';
import { decodeEvent, Recorded } from '../domain/events';
import { EventStore, ReadStreamOptions, WrongExpectedVersion } from '../../stores/ports';
import { eventId, writtenBy } from '../../stores/event-ids';
import { appendDecided, CommandContext, IdempotentWrite, recordedAfter, streamEnd } from './context';
import { ConcurrencyConflict, SecretAlreadyIssued } from './errors';
import { inCommandSpan } from './command-span';

const ATTEMPTS = 8;

/**
 * The write path, every command's: read the stream, fold it, decide, append with the expected
 * revision. Two layers wrap it and nothing else: the command's span with a child span per step
 * (./command-span.ts), and on a concurrent write (WrongExpectedVersion) the whole attempt again
 * against the new state (retryOnConflict). The metadata, chain digests and event ids are the
 * append's (appendDecided in ./context.ts).
 *
 * `decide` may throw a DomainError, which appends nothing. A retry under an idempotency key whose
 * first attempt appended answers from that append instead of deciding again. Answers the events
 * appended, the global position of the last one (null when none was): what a reader waits for,
 * and the aggregate's state right after them, which a later write may already have moved on.
 */
export function handle<Command, Event extends DomainEvent, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  ctx: CommandContext,
): Promise<Decision<Event, State>> {
  return inCommandSpan(command, stream, ctx, (step) =>
    retryOnConflict(stream, ATTEMPTS, async () => {
      const recorded = await step.read(() => loadStream<Event>(store, stream));
      const before = fold(decider, recorded);
      const appendedEarlier = ctx.idempotency && earlierWrite(ctx.idempotency, stream, recorded);
      if (appendedEarlier) return { events: [], position: appendedEarlier, state: before };
      const events = await step.decide(() => decider.decide(command, before));
      if (events.length === 0) return { events, position: null, state: before };
      const last = recorded.at(-1);
      const { position } = await step.append(() =>
        appendDecided(store, stream, events, recordedAfter(ctx, last), streamEnd(last)),
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
  return inCommandSpan(command, stream, ctx, async (step) => {
    const events = await step.decide(() => decider.decide(command, decider.initialState));
    return (await step.append(() => appendDecided(store, stream, events, ctx, streamEnd(undefined)))).position;
  });
}
