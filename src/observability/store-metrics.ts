import { performance } from 'node:perf_hooks';
import {
  DocumentStore,
  EventStore,
  InvalidPosition,
  StoreUnavailable,
  Stores,
  StreamDeleted,
  WrongExpectedVersion,
} from '../stores/ports';
import { isStorageFull } from '../stores/storage-full';
import { DocumentStoreOperation, EventStoreOperation, StoreFailureKind } from './label-values';
import { Metrics } from './metrics';

interface Timed {
  duration: Metrics['eventStoreDuration'];
  failures: Metrics['eventStoreFailures'];
}

/** Why a store call failed, as one of a few fixed kinds (a label value: never the message). */
export function failureKind(err: unknown): StoreFailureKind {
  if (err instanceof WrongExpectedVersion) return 'wrong_expected_version';
  if (err instanceof StoreUnavailable) return 'unavailable';
  if (isStorageFull(err)) return 'storage_full';
  if (err instanceof StreamDeleted) return 'stream_deleted';
  if (err instanceof InvalidPosition) return 'invalid_position';
  return 'other';
}

/** Times each call of `method` on `target` that completes, and counts each that fails by kind. */
function timed<T extends object, K extends keyof T>(
  target: T,
  method: K,
  operation: EventStoreOperation | DocumentStoreOperation,
  metrics: Timed,
): T[K] {
  const call = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  const duration = metrics.duration.labels(operation);
  return (async (...args: unknown[]) => {
    const started = performance.now();
    try {
      const result = await call(...args);
      duration.observe((performance.now() - started) / 1000);
      return result;
    } catch (err) {
      metrics.failures.inc({ operation, kind: failureKind(err) });
      throw err;
    }
  }) as T[K];
}

/**
 * The stores with their calls timed and their failures counted, for every adapter alike: the
 * port is the one place all of them pass. Subscriptions pass through untimed (they last).
 */
export function meteredStores(stores: Stores, metrics: Metrics): Stores {
  const events: Timed = { duration: metrics.eventStoreDuration, failures: metrics.eventStoreFailures };
  const documents: Timed = { duration: metrics.documentStoreDuration, failures: metrics.documentStoreFailures };
  const e = stores.events;
  const d = stores.documents;
  const meteredEvents: EventStore = {
    append: timed(e, 'append', 'append', events),
    readStream: timed(e, 'readStream', 'read_stream', events),
    readAll: timed(e, 'readAll', 'read_all', events),
    headPosition: timed(e, 'headPosition', 'head_position', events),
    subscribeAll: e.subscribeAll.bind(e),
    close: e.close.bind(e),
  };
  const meteredDocuments: DocumentStore = {
    ensureCollections: d.ensureCollections.bind(d),
    get: timed(d, 'get', 'get', documents),
    getMany: timed(d, 'getMany', 'get_many', documents),
    find: timed(d, 'find', 'find', documents),
    findInRange: timed(d, 'findInRange', 'find_in_range', documents),
    count: timed(d, 'count', 'count', documents),
    write: timed(d, 'write', 'write', documents),
    checkpoint: timed(d, 'checkpoint', 'checkpoint', documents),
    checkpoints: timed(d, 'checkpoints', 'checkpoints', documents),
    dropCollection: d.dropCollection.bind(d),
    replaceCollection: timed(d, 'replaceCollection', 'replace_collection', documents),
    resetCheckpoint: d.resetCheckpoint.bind(d),
    idempotency: d.idempotency,
    fence: d.fence.bind(d),
    close: d.close.bind(d),
  };
  return { ...stores, events: meteredEvents, documents: meteredDocuments };
}
