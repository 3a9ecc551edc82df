import {
  MongoBulkWriteError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { withinBudget } from '../budget';
import { StoreUnavailable } from '../ports';

/**
 * Server error codes that say the deployment could not take the operation now, not that the
 * operation is wrong: no primary (an election, a step-down), a member shutting down, a time limit
 * (maxTimeMS, a write concern's wtimeout), a host out of reach. The driver retries a read or write
 * once on most of them; what still fails after that is an outage to the caller.
 */
const UNAVAILABLE_CODES = new Set([
  6 /* HostUnreachable */, 7 /* HostNotFound */, 50 /* MaxTimeMSExpired */, 64 /* WriteConcernFailed (wtimeout) */,
  89 /* NetworkTimeout */, 91 /* ShutdownInProgress */, 189 /* PrimarySteppedDown */, 262 /* ExceededTimeLimit */,
  9001 /* SocketException */, 10107 /* NotWritablePrimary */, 11600 /* InterruptedAtShutdown */,
  11602 /* InterruptedDueToReplStateChange */, 13435 /* NotPrimaryNoSecondaryOk */, 13436 /* NotPrimaryOrSecondary */,
]);

/** Labels the driver puts on failures that a later attempt of the same operation may overcome. */
const TRANSIENT_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.ResetPool,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.RetryableError,
];

/** Driver failures that are outages whatever they carry: no server to send to, or no answer in time. */
const OUTAGE_CLASSES = [
  MongoServerSelectionError,
  MongoNetworkError,
  MongoTopologyClosedError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
];

/**
 * Whether a driver failure means MongoDB could not be reached or could not answer in time
 * (server selection, the network, a time limit, no primary), as opposed to a refused operation
 * (a duplicate key, a bad query), which is the caller's or the service's own fault.
 */
export function isMongoOutage(error: unknown): boolean {
  if (OUTAGE_CLASSES.some((outage) => error instanceof outage)) return true;
  if (!(error instanceof MongoError)) return false;
  if (TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))) return true;
  if (UNAVAILABLE_CODES.has(Number(error.code))) return true;
  if (error instanceof MongoBulkWriteError) return isBulkWriteOutage(error);
  const writeConcernCode = (error as { writeConcernError?: { code?: unknown } }).writeConcernError?.code;
  return UNAVAILABLE_CODES.has(Number(writeConcernCode));
}

function isBulkWriteOutage(error: MongoBulkWriteError): boolean {
  const writeErrors = error.result.getWriteErrors();
  const writeConcernError = error.result.getWriteConcernError();
  // The driver wraps a failure to send the batch (no server, a closed topology) in a bulk write
  // error of its own, with no write error, no write-concern error and no server code.
  if (writeErrors.length === 0 && !writeConcernError && error.code === undefined) return true;
  return [...writeErrors.map((e) => e.code), writeConcernError?.code].some((code) =>
    UNAVAILABLE_CODES.has(Number(code)),
  );
}

/**
 * Runs a MongoDB operation and reports an outage as StoreUnavailable, which the HTTP layer answers
 * with 503 store_unavailable and Retry-After (docs/production.md); every other failure is left as it is.
 * Held to the request's store budget (../budget.ts): server selection included, it answers in time.
 */
export async function unavailableOnOutage<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await withinBudget(`MongoDB ${operation}`, run);
  } catch (error) {
    if (isMongoOutage(error)) throw new StoreUnavailable(`MongoDB ${operation}`, { cause: error });
    throw error;
  }
}
