/**
 * What the KurrentDB fault tests share: stand-in peers and adapters that are closed after each
 * test, and events to append. The peer is a stand-in (test/support/kurrentdb-stand-in.ts): it
 * checks client behaviour only, not a KurrentDB server.
 */
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore, type EventStoreDbOptions } from '../../../src/stores/eventstoredb/event-store';
import type { NewEvent } from '../../../src/stores/ports';
import { KurrentDbStandIn } from '../../support/kurrentdb-stand-in';

/** Every gRPC status the KurrentDB client can surface on a read or an append that is no answer (issue 45, item 4). */
export const REFUSAL_STATUSES = [
  'CANCELLED',
  'UNKNOWN',
  'DEADLINE_EXCEEDED',
  'RESOURCE_EXHAUSTED',
  'ABORTED',
  'INTERNAL',
  'UNAVAILABLE',
  'PERMISSION_DENIED',
] as const;

export class Opened {
  readonly #things: { close(): Promise<void> }[] = [];

  constructor(private readonly defaults: EventStoreDbOptions = {}) {}

  add<T extends { close(): Promise<void> }>(thing: T): T {
    this.#things.push(thing);
    return thing;
  }

  standIn(): Promise<KurrentDbStandIn> {
    return KurrentDbStandIn.start().then((peer) => this.add(peer));
  }

  storeOn(url: string, options: EventStoreDbOptions = {}): EventStoreDbEventStore {
    return this.add(
      new EventStoreDbEventStore(KurrentDBClient.connectionString(url), { ...this.defaults, ...options }),
    );
  }

  /** Closes what was opened, the last first. */
  async close(): Promise<void> {
    for (const thing of this.#things.splice(0).reverse()) await thing.close();
  }
}

let noted = 0;
/** A new event, each with a request id of its own. */
export function note(): NewEvent {
  noted += 1;
  return {
    type: 'Noted',
    data: { n: noted },
    metadata: { actor: { kind: 'cli', id: null }, request_id: `req-${noted}`, time: '2026-01-01T00:00:00.000Z' },
  };
}
