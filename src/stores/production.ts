import { setTimeout as delay } from 'node:timers/promises';
import { BACKWARDS, END, KurrentDBClient } from '@kurrent/kurrentdb-client';
import { redactUrl, type ProductionStoreConfig } from './config';
import { STARTUP_BACKOFF, backoffDelay } from './eventstoredb/backoff';
import { EventStoreDbEventStore, type StoreLog } from './eventstoredb/event-store';
import { drainWithin } from './eventstoredb/timeouts';
import { withOneTrustStore } from './eventstoredb/trust';
import { openMongoStores, type MongoStores } from './mongodb';
import { mongoRateLimits } from './mongodb/rate-limits';
import type { StoreHealth, Stores } from './ports';

/** How long start-up keeps retrying an unreachable server before giving up. */
const STARTUP_BUDGET_MS = 30_000;
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * Connects to KurrentDB (or EventStoreDB) and MongoDB, retrying each on the start-up back-off for about 30 s,
 * then fails with an error naming every server that stayed unreachable.
 */
export async function openProductionStores(config: ProductionStoreConfig, log?: StoreLog): Promise<Stores> {
  const deps: StartupRetryDeps = {
    budgetMs: STARTUP_BUDGET_MS,
    random: Math.random,
    now: Date.now,
    sleep: (ms) => delay(ms),
    log,
  };
  const { eventStoreUrl, mongoUrl } = config;
  const [events, mongo] = await Promise.allSettled([
    retryStartup(`KurrentDB at ${redactUrl(eventStoreUrl)}`, () => connectEventStore(eventStoreUrl), deps),
    retryStartup(`MongoDB at ${redactUrl(mongoUrl)}`, () => openMongoStores(mongoUrl), deps),
  ]);
  if (events.status === 'rejected' || mongo.status === 'rejected') {
    if (events.status === 'fulfilled') await events.value.dispose();
    if (mongo.status === 'fulfilled') await mongo.value.close();
    const failed = [events, mongo].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    throw new Error(failed.map(messageOf).join('; '));
  }
  return productionStores(events.value, mongo.value, log);
}

function productionStores(client: KurrentDBClient, mongo: MongoStores, log?: StoreLog): Stores {
  const events = new EventStoreDbEventStore(client, { log });
  return {
    events,
    documents: mongo.documents,
    sessions: mongo.sessions,
    rateLimits: mongoRateLimits(mongo.db, log),
    leases: mongo.leases,
    // Nothing to lock across hosts: projectors take turns by the lease (docs/production.md).
    claimProjections: () => undefined,
    localKey: () => null,
    health: () =>
      Promise.all([
        probe('eventstoredb', () => pingEventStore(client, HEALTH_TIMEOUT_MS)),
        probe('mongodb', () => withTimeout(mongo.ping(), HEALTH_TIMEOUT_MS)),
      ]),
    close: async () => {
      await Promise.all([events.close(), mongo.close()]);
    },
  };
}

export interface StartupRetryDeps {
  budgetMs: number;
  random: () => number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  log?: StoreLog;
}

/**
 * Retries `attempt` on the start-up back-off until it succeeds or the next wait would overrun the
 * budget. Clock, sleep and randomness come in so that tests run the 30 s on a virtual clock.
 */
export async function retryStartup<T>(server: string, attempt: () => Promise<T>, deps: StartupRetryDeps): Promise<T> {
  const started = deps.now();
  let failures = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      failures += 1;
      const wait = backoffDelay(failures - 1, STARTUP_BACKOFF, deps.random);
      const elapsed = deps.now() - started;
      if (elapsed + wait > deps.budgetMs) {
        throw new Error(
          `${server} is unreachable: ${failures} attempt${failures === 1 ? '' : 's'} in ` +
            `${(elapsed / 1000).toFixed(1)} s failed, the last with: ${messageOf(error)}`,
          { cause: error },
        );
      }
      deps.log?.warn(
        { err: error, attempt: failures, retryInMs: Math.round(wait) },
        `${server} not reachable yet; retrying`,
      );
      await deps.sleep(wait);
    }
  }
}

/** The client connects lazily: a one-event read proves the server answers and lets us read $all. */
async function connectEventStore(url: string): Promise<KurrentDBClient> {
  const client = KurrentDBClient.connectionString(withOneTrustStore(url));
  try {
    await pingEventStore(client, HEALTH_TIMEOUT_MS * 2);
    return client;
  } catch (error) {
    await client.dispose();
    throw error;
  }
}

/** The client's reads take no deadline (the native bridge ignores it), so drainWithin sets one. */
async function pingEventStore(client: KurrentDBClient, timeoutMs: number): Promise<void> {
  await drainWithin(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }), timeoutMs, 'ping');
}

async function probe(name: string, check: () => Promise<void>): Promise<StoreHealth> {
  const started = Date.now();
  try {
    await check();
    return { name, ok: true, detail: `answered in ${Date.now() - started} ms` };
  } catch (error) {
    return { name, ok: false, detail: messageOf(error) };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
