import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  isCommandError,
  NotLeaderError,
  StreamDeletedError,
  StreamNotFoundError,
  StreamTombstonedError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { StoreUnavailable } from '../ports';
import { OperationTimedOut } from './timeouts';

/**
 * gRPC codes of a call that never reached the server, was cut off, or got no answer in time. The
 * client passes some of them on raw (a grpc-js ServiceError, not one of its own classes): the
 * capability probe it makes after every reconnect, and a unary append whose stream errors.
 */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([
  /* CANCELLED */ 1, /* DEADLINE_EXCEEDED */ 4, /* UNAVAILABLE */ 14,
]);

/**
 * gRPC codes that no retry overcomes: the server refuses the service itself (its credentials, its
 * rights, a method it lacks). Still 503 to the client, who can do nothing else; an error in the
 * log, for the operator who can.
 */
const PERMANENT_CODES: ReadonlySet<number> = new Set([
  /* PERMISSION_DENIED */ 7, /* UNIMPLEMENTED */ 12, /* UNAUTHENTICATED */ 16,
]);

/** The client's answers about the request itself, which the adapter turns into the port's own. */
const ANSWERS = [StreamNotFoundError, StreamDeletedError, StreamTombstonedError, WrongExpectedVersionError];

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
  return TRANSIENT_CODES.has(grpcCodeOf(error) ?? -1);
}

/**
 * Whatever the client raises that is not an answer about the request: every gRPC status the
 * server or the transport can end a call with (CANCELLED, UNKNOWN, RESOURCE_EXHAUSTED, ABORTED,
 * INTERNAL, ... as the client classes them or passes them on raw), and our own time limit.
 */
export function isStoreFailure(error: unknown): boolean {
  if (isTransient(error)) return true;
  if (error instanceof Error && isCommandError(error)) return !ANSWERS.some((answer) => error instanceof answer);
  return grpcCodeOf(error) !== undefined;
}

/** A failure the operator must act on: the server refuses the service's credentials or rights. */
export function isPermanent(error: unknown): boolean {
  return error instanceof AccessDeniedError || PERMANENT_CODES.has(grpcCodeOf(error) ?? -1);
}

function grpcCodeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'number' && code > 0 ? code : undefined;
}

/** A store failure as the port reports it (503 store_unavailable); anything else unchanged. */
export function asStoreFailure(error: unknown, operation: string): unknown {
  return isStoreFailure(error)
    ? new StoreUnavailable(operation, { cause: error, permanent: isPermanent(error) })
    : error;
}
