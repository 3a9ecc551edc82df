import { setTimeout as sleep } from 'node:timers/promises';
import { Decider, DomainEvent, fold } from '../domain/decider';
import { AppendResult, EventStore, ExpectedRevision, WrongExpectedVersion } from '../stores/ports';
import { CommandContext, toNewEvents } from './context';
import { ConcurrencyConflict } from './errors';

export interface Handled<State> {
  state: State;
  /** Global position of the last event appended: what a reader waits for. */
  position: string | null;
  appended: number;
}

export const DEFAULT_ATTEMPTS = 8;

/**
 * Load, decide, append with the expected revision; on a concurrent write, do it all again
 * against the new state. `decide` may throw a DomainError, which appends nothing.
 */
export async function handle<Command, Event extends DomainEvent, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  ctx: CommandContext,
  attempts = DEFAULT_ATTEMPTS,
): Promise<Handled<State>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(stream);
    const state = fold(decider, recorded as unknown as Event[]);
    const events = decider.decide(command, state);
    if (events.length === 0) return { state, position: null, appended: 0 };
    const expected: ExpectedRevision = recorded.length === 0 ? 'no_stream' : recorded.length - 1;
    try {
      const result: AppendResult = await store.append(stream, toNewEvents(events, ctx), expected);
      return { state: events.reduce(decider.evolve, state), position: result.position, appended: events.length };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersion)) throw err;
      if (attempt >= attempts) throw new ConcurrencyConflict(stream);
      await backOff(attempt);
    }
  }
}

/** Jittered so that writers that collided do not collide again in lock-step. */
export function backOff(attempt: number): Promise<void> {
  return sleep(Math.random() * Math.min(50, 2 ** attempt));
}
