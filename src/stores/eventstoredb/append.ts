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
import { isTransient } from './failures';

/** Retries of an append whose outcome is unknown; the same ids make each one safe. */
export const APPEND_RETRY: BackoffPolicy & { attempts: number } = { attempts: 4, initialMs: 100, maxMs: 2_000, jitter: 'equal' };

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
  return unaryAppend.call(client, stream, events, { ...options, requiresLeader: true, batchAppendSize: 3 * 1024 * 1024 });
}

/** Each event under its own id, or a fresh one drawn once, so that every retry sends the same ids. */
export function toEventData(events: NewEvent[]): EventData[] {
  return events.map((event) =>
    jsonEvent({ id: event.id ?? randomUUID(), type: event.type, data: event.data, metadata: { ...event.metadata } }),
  );
}

export interface RetryDeps {
  policy: typeof APPEND_RETRY;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  onRetry?: (error: unknown, attempt: number, waitMs: number) => void;
}

export const DEFAULT_RETRY: RetryDeps = { policy: APPEND_RETRY, random: Math.random, sleep: (ms) => delay(ms) };

/**
 * Sends the append (the same events, the same ids) until the server answers, for up to
 * `policy.attempts` tries; a deleted stream becomes StreamDeleted, an answer that never came
 * StoreUnavailable. Any other error (a wrong expected revision) is the caller's.
 */
export async function appendWithRetry(
  stream: string,
  send: () => Promise<ClientAppendResult>,
  deps: RetryDeps = DEFAULT_RETRY,
): Promise<ClientAppendResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (isDeletedStream(error)) throw new StreamDeleted(stream);
      if (!isTransient(error)) throw error;
      if (attempt + 1 >= deps.policy.attempts) throw new StoreUnavailable(`append to ${stream}`, { cause: error });
      const wait = backoffDelay(attempt, deps.policy, deps.random);
      deps.onRetry?.(error, attempt + 1, wait);
      await deps.sleep(wait);
    }
  }
}
