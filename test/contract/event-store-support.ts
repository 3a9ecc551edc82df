import { randomUUID } from 'node:crypto';
import {
  WrongExpectedVersion,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '../../src/stores/ports';

/** What the event store's contract files share: events, fresh streams, and waiting on subscriptions. */

/** Longer than any adapter's poll interval: a subscription has surely caught up and is waiting. */
export const CATCH_UP_MS = 250;
/** Upper bound for a live event to reach a subscription before the test gives up. */
export const DELIVERY_LIMIT_MS = 5000;

export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actor: { kind: 'system', id: null },
    request_id: randomUUID(),
    time: new Date().toISOString(),
    ...overrides,
  };
}

export function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { type, data, metadata: metadata() };
}

/** A stream no other test (or other user of a shared server) writes to. */
export function newStream(): string {
  return `contract-${randomUUID()}`;
}

/** Fails with a readable diff unless the positions are strictly increasing. */
export function expectIncreasing(positions: Position[]): void {
  expect(positions).toEqual([...new Set(positions)].sort());
}

export async function wrongExpectedVersion(append: Promise<unknown>): Promise<WrongExpectedVersion> {
  const error = await append.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersion);
  return error as WrongExpectedVersion;
}

/** The stream's events among `events`: other writers may share the global log. */
export function of(stream: string, events: RecordedEvent[]): RecordedEvent[] {
  return events.filter((e) => e.stream === stream);
}

/**
 * A subscription from `from` that collects the first `count` events of `stream`, giving up
 * after DELIVERY_LIMIT_MS so that a broken adapter fails the test instead of hanging it.
 */
export function collect(store: EventStore, from: Position, stream: string, count: number): Promise<RecordedEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), DELIVERY_LIMIT_MS);
  return (async () => {
    const collected: RecordedEvent[] = [];
    try {
      for await (const e of store.subscribeAll(from, abort.signal)) {
        if (e.stream === stream) collected.push(e);
        if (collected.length === count) break;
      }
      return collected;
    } finally {
      clearTimeout(timer);
    }
  })();
}

/** Resolves true when the promise settles within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
