import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CancelledError,
  DeadlineExceededError,
  NotLeaderError,
  StreamDeletedError,
  StreamTombstonedError,
  TimeoutError,
  UnavailableError,
  jsonEvent,
  type AppendResult as ClientAppendResult,
  type EventData,
} from '@kurrent/kurrentdb-client';
import { StoreUnavailable, StreamDeleted, type NewEvent } from '../ports';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { OperationTimedOut } from './timeouts';

/** Retries of an append whose outcome is unknown; the same ids make each one safe. */
export const APPEND_RETRY: BackoffPolicy & { attempts: number } = { attempts: 4, initialMs: 100, maxMs: 2_000, jitter: 'equal' };

/**
 * Errors after which the append may or may not have been committed (the connection dropped, the
 * server did not answer in time), or was surely not (a follower refused it during an election):
 * retrying with the same event ids is then either applied once or recognised by the server as a
 * write it already has (its idempotent write check), and answered as the first time.
 */
export function isUnknownOutcome(error: unknown): boolean {
  return (
    error instanceof OperationTimedOut ||
    error instanceof DeadlineExceededError ||
    error instanceof UnavailableError ||
    error instanceof CancelledError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError
  );
}

/** The stream cannot take events any more, whatever is retried. */
export function isDeletedStream(error: unknown): error is StreamDeletedError | StreamTombstonedError {
  return error instanceof StreamDeletedError || error instanceof StreamTombstonedError;
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
}

export const DEFAULT_RETRY: AppendRetryDeps = { policy: APPEND_RETRY, random: Math.random, sleep: (ms) => delay(ms) };

/**
 * Sends the append (the same events, the same ids) until the server answers, for up to
 * `policy.attempts` tries; a deleted stream becomes StreamDeleted, an answer that never came
 * StoreUnavailable. Any other error (a wrong expected revision) is the caller's.
 */
export async function appendWithRetry(
  stream: string,
  send: () => Promise<ClientAppendResult>,
  deps: AppendRetryDeps = DEFAULT_RETRY,
): Promise<ClientAppendResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (isDeletedStream(error)) throw new StreamDeleted(stream);
      if (!isUnknownOutcome(error)) throw error;
      if (attempt + 1 >= deps.policy.attempts) throw new StoreUnavailable(`append to ${stream}`, { cause: error });
      const wait = backoffDelay(attempt, deps.policy, deps.random);
      deps.onRetry?.(error, attempt + 1, wait);
      await deps.sleep(wait);
    }
  }
}
