import { EventEmitter, once } from 'node:events';
import type { DocumentStore, EventStore, RecordedEvent, Stores, SubscriptionObserver } from '../../src/stores/ports';

/**
 * How an outage looks to a caller: 'fail' answers every operation at once with InjectedOutage
 * (a refused connection); 'stall' holds every operation until the outage ends (a server that
 * accepted the connection and stopped answering), so that the caller's own time limits are what
 * is tested.
 */
export type OutageMode = 'fail' | 'stall';

/** The error a failing store answers with while an outage lasts. */
export class InjectedOutage extends Error {
  constructor(
    readonly store: string,
    readonly operation: string,
  ) {
    super(`${operation}: ${store} is unreachable (injected outage)`);
    this.name = 'InjectedOutage';
  }
}

/**
 * One switch per store: outage(mode, ms) starts an outage that ends by itself after `ms` (or on
 * heal()). Operations started before the outage are not affected; those started during it fail
 * or stall as the mode says.
 */
export class FaultSwitch {
  #mode: OutageMode | null = null;
  #timer: NodeJS.Timeout | undefined;
  readonly #changes = new EventEmitter();

  constructor(readonly store: string) {}

  get mode(): OutageMode | null {
    return this.#mode;
  }

  outage(mode: OutageMode, forMs: number): void {
    clearTimeout(this.#timer);
    this.#mode = mode;
    this.#changes.emit('down');
    this.#timer = setTimeout(() => this.heal(), forMs);
  }

  heal(): void {
    clearTimeout(this.#timer);
    if (this.#mode === null) return;
    this.#mode = null;
    this.#changes.emit('up');
  }

  on(change: 'down' | 'up', listener: () => void): () => void {
    this.#changes.on(change, listener);
    return () => this.#changes.off(change, listener);
  }

  /** Passes an operation through, fails it, or holds it until the outage ends. */
  async gate<T>(operation: string, run: () => Promise<T>): Promise<T> {
    if (this.#mode === 'fail') throw new InjectedOutage(this.store, operation);
    if (this.#mode === 'stall') await once(this.#changes, 'up');
    return run();
  }

  /** Resolves once no outage is on, or when the signal aborts. */
  async restored(signal?: AbortSignal): Promise<void> {
    if (this.#mode === null || signal?.aborted) return;
    await once(this.#changes, 'up', signal ? { signal } : {}).catch(() => undefined);
  }
}

/**
 * The event store behind a fault switch. Its subscriptions behave as the production adapter's do
 * when the server goes away: they do not end, they stop delivering, tell the observer of the drop,
 * and deliver what was committed meanwhile, in order, once the outage ends.
 */
export function faultyEventStore(store: EventStore, faults: FaultSwitch): EventStore {
  return {
    append: (stream, events, expected) => faults.gate('append', () => store.append(stream, events, expected)),
    readStream: (stream, options) => faults.gate('readStream', () => store.readStream(stream, options)),
    readAll: (from, maxCount) => faults.gate('readAll', () => store.readAll(from, maxCount)),
    headPosition: () => faults.gate('headPosition', () => store.headPosition()),
    subscribeAll: (from, signal, observer) => interruptible(store, faults, from, signal, observer),
    close: () => store.close(),
  };
}

async function* interruptible(
  store: EventStore,
  faults: FaultSwitch,
  from: string,
  signal?: AbortSignal,
  observer?: SubscriptionObserver,
): AsyncGenerator<RecordedEvent> {
  const offUp = faults.on('up', () => observer?.onLive?.());
  const offDown = faults.on('down', () => observer?.onDropped?.(new InjectedOutage(faults.store, 'subscribeAll'), 0));
  try {
    await faults.restored(signal);
    const live: SubscriptionObserver = { onLive: () => faults.mode === null && observer?.onLive?.() };
    for await (const event of store.subscribeAll(from, signal, live)) {
      await faults.restored(signal);
      if (signal?.aborted) return;
      yield event;
    }
  } finally {
    offUp();
    offDown();
  }
}

/** The document store behind a fault switch: every operation passes, fails or stalls. */
export function faultyDocumentStore(store: DocumentStore, faults: FaultSwitch): DocumentStore {
  return {
    ensureCollections: (specs) => faults.gate('ensureCollections', () => store.ensureCollections(specs)),
    get: (collection, id) => faults.gate('get', () => store.get(collection, id)),
    getMany: (collection, ids) => faults.gate('getMany', () => store.getMany(collection, ids)),
    find: (collection, where) => faults.gate('find', () => store.find(collection, where)),
    findInRange: (collection, range) => faults.gate('findInRange', () => store.findInRange(collection, range)),
    count: (collection) => faults.gate('count', () => store.count(collection)),
    write: (writes, checkpoint) => faults.gate('write', () => store.write(writes, checkpoint)),
    fence: (fence) => store.fence(fence),
    checkpoint: (projection) => faults.gate('checkpoint', () => store.checkpoint(projection)),
    checkpoints: (projections) => faults.gate('checkpoints', () => store.checkpoints(projections)),
    dropCollection: (collection) => faults.gate('dropCollection', () => store.dropCollection(collection)),
    replaceCollection: (target, source, checkpoint) =>
      faults.gate('replaceCollection', () => store.replaceCollection(target, source, checkpoint)),
    resetCheckpoint: (projection) => faults.gate('resetCheckpoint', () => store.resetCheckpoint(projection)),
    idempotency: {
      begin: (key, holder, fingerprint, leaseMs) =>
        faults.gate('idempotency', () => store.idempotency.begin(key, holder, fingerprint, leaseMs)),
      answered: (key, holder, answer, ttlMs) =>
        faults.gate('idempotency', () => store.idempotency.answered(key, holder, answer, ttlMs)),
      release: (key, holder) => faults.gate('idempotency', () => store.idempotency.release(key, holder)),
    },
    close: () => store.close(),
  };
}

/**
 * Any stores with their event store and document store behind switches of their own, so that a
 * test can take one server away and keep the other; health says which is down.
 */
export function faultyStores(stores: Stores): { stores: Stores; events: FaultSwitch; documents: FaultSwitch } {
  const events = new FaultSwitch('event store');
  const documents = new FaultSwitch('document store');
  const down = (faults: FaultSwitch) => ({ name: faults.store, ok: false, detail: `injected ${faults.mode} outage` });
  return {
    events,
    documents,
    stores: {
      ...stores,
      events: faultyEventStore(stores.events, events),
      documents: faultyDocumentStore(stores.documents, documents),
      health: async () => [
        ...(await stores.health()),
        ...[events, documents].filter((faults) => faults.mode !== null).map(down),
      ],
    },
  };
}
