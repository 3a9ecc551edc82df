import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  StreamDeletedError,
  StreamTombstonedError,
  jsonEvent,
  type AppendResult as ClientAppendResult,
  type AppendStreamState,
  type EventData,
  type KurrentDBClient,
} from '@kurrent/kurrentdb-client';
// The client's unary append, which appendToStream chooses only when the server lacks batch appends.
import { append as unaryAppend } from '@kurrent/kurrentdb-client/dist/streams/appendToStream/append';
import { StoreUnavailable, StreamDeleted, type NewEvent } from '../ports';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { budgetLeftMs } from '../budget';
import { asStoreFailure, isTransient } from './failures';

/**
 * Retries of an append whose outcome is unknown; the same ids make each one safe. `budgetMs`
 * bounds all tries together: against a server that accepts and never answers, four tries of
 * 10 s each would hold the request for 40 s, past most proxies' patience.
 */
export const APPEND_RETRY: BackoffPolicy & { attempts: number; budgetMs?: number } = {
  attempts: 4,
  initialMs: 100,
  maxMs: 2_000,
  jitter: 'equal',
  budgetMs: 15_000,
};

/** The stream cannot take events any more, whatever is retried. */
export function isDeletedStream(error: unknown): error is StreamDeletedError | StreamTombstonedError {
  return error instanceof StreamDeletedError || error instanceof StreamTombstonedError;
}

/**
 * One append on its own gRPC call. appendToStream is not used: it first asks the server's
 * capabilities (a probe whose failure after a reconnect is a raw gRPC error, and which stays
 * failed in the client's cache after a deadline), then sends every append of the process over one
 * shared batch stream, whose writes waiting on flow control are rejected unhandled when that
 * stream dies, and an unhandled rejection ends the process (src/fatal.ts). A unary append holds at
 * most one write of its own, and its failure reaches only its caller.
 */
export function sendAppend(
  client: KurrentDBClient,
  stream: string,
  events: EventData[],
  options: { streamState: AppendStreamState; deadline: number },
): Promise<ClientAppendResult> {
  // batchAppendSize is the batch path's and unused here; the type asks for it.
  return unaryAppend.call(client, stream, events, {
    ...options,
    requiresLeader: true,
    batchAppendSize: 3 * 1024 * 1024,
  });
}

/** Each event under its own id, or a fresh one drawn once, so that every retry sends the same ids. */
export function toEventData(events: NewEvent[]): EventData[] {
  return events.map((event) =>
    jsonEvent({ id: event.id ?? randomUUID(), type: event.type, data: event.data, metadata: { ...event.metadata } }),
  );
}

export interface AppendRetryDeps {
  policy: typeof APPEND_RETRY;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  onRetry?: (error: unknown, attempt: number, waitMs: number) => void;
  now?: () => number;
}

export const DEFAULT_RETRY: AppendRetryDeps = { policy: APPEND_RETRY, random: Math.random, sleep: (ms) => delay(ms) };

/**
 * Sends the append (the same events, the same ids) until the server answers, for up to
 * `policy.attempts` tries within `policy.budgetMs`, each given what is left of the budget; a
 * deleted stream becomes StreamDeleted, an answer that never came StoreUnavailable. Any other
 * error (a wrong expected revision) is the caller's.
 */
export async function appendWithRetry(
  stream: string,
  send: (remainingMs: number) => Promise<ClientAppendResult>,
  deps: AppendRetryDeps = DEFAULT_RETRY,
): Promise<ClientAppendResult> {
  const now = deps.now ?? Date.now;
  // Retries end with the request's store budget too: a 503 in time beats a success too late.
  const budget = Math.min(deps.policy.budgetMs ?? Number.POSITIVE_INFINITY, budgetLeftMs() ?? Number.POSITIVE_INFINITY);
  const started = now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(budget - (now() - started));
    } catch (error) {
      if (isDeletedStream(error)) throw new StreamDeleted(stream);
      // A refusal no retry overcomes (RESOURCE_EXHAUSTED, PERMISSION_DENIED, ...) is answered at once.
      if (!isTransient(error)) throw asStoreFailure(error, `append to ${stream}`);
      const wait = backoffDelay(attempt, deps.policy, deps.random);
      if (attempt + 1 >= deps.policy.attempts || now() - started + wait >= budget) {
        throw new StoreUnavailable(`append to ${stream}`, { cause: error });
      }
      deps.onRetry?.(error, attempt + 1, wait);
      await deps.sleep(wait);
    }
  }
}
