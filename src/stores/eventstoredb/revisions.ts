import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  type AppendStreamState,
  type CurrentStreamState,
} from '@kurrent/kurrentdb-client';
import { WrongExpectedVersion, type ExpectedRevision } from '../ports';

export function toClientStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) {
        throw new RangeError(`expected revision must be a non-negative integer, got ${expected}`);
      }
      return BigInt(expected);
  }
}

/** A stream revision as the port carries it; revisions beyond 2^53 cannot occur in practice. */
export function toPortRevision(revision: bigint): number {
  if (revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`revision ${revision} exceeds Number.MAX_SAFE_INTEGER`);
  }
  return Number(revision);
}

/**
 * Servers before 21.10 report the actual version in gRPC metadata, where a missing stream may
 * arrive as a negative number rather than as no_stream: both mean the stream does not exist.
 */
export function toPortActualRevision(current: CurrentStreamState): number | 'no_stream' {
  if (current === NO_STREAM || current < 0n) return 'no_stream';
  return toPortRevision(current);
}

/**
 * The port's error carries the condition the caller asked for: the client's own `expectedState`
 * is, on older servers, decoded from a raw number in which conditions are negative codes.
 */
export function toPortWrongExpectedVersion(
  error: WrongExpectedVersionError,
  expected: ExpectedRevision,
): WrongExpectedVersion {
  return new WrongExpectedVersion(error.streamName, expected, toPortActualRevision(error.actualState));
}

export function isClientWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError;
}
