import {
  CancelledError,
  DeadlineExceededError,
  NotLeaderError,
  TimeoutError,
  UnavailableError,
} from '@kurrent/kurrentdb-client';
import { StoreUnavailable } from '../ports';
import { OperationTimedOut } from './timeouts';

/**
 * gRPC codes of a call that never reached the server, was cut off, or got no answer in time. The
 * client passes some of them on raw (a grpc-js ServiceError, not one of its own classes): the
 * capability probe it makes after every reconnect, and a unary append whose stream errors.
 */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([/* CANCELLED */ 1, /* DEADLINE_EXCEEDED */ 4, /* UNAVAILABLE */ 14]);

/**
 * The server could not be reached or did not answer in time, or a follower refused during an
 * election: the same call may succeed in a moment. An append that failed so may or may not have
 * been committed; retried with the same event ids, it is applied once.
 */
export function isTransient(error: unknown): boolean {
  if (
    error instanceof OperationTimedOut ||
    error instanceof DeadlineExceededError ||
    error instanceof UnavailableError ||
    error instanceof CancelledError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError
  ) {
    return true;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'number' && TRANSIENT_CODES.has(code);
}

/** A transient failure as the port reports it (503 store_unavailable); anything else unchanged. */
export function asStoreFailure(error: unknown, operation: string): unknown {
  return isTransient(error) ? new StoreUnavailable(operation, { cause: error }) : error;
}
