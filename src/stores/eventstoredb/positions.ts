import type { Position as ClientPosition } from '@kurrent/kurrentdb-client';
import { InvalidPosition, type Position } from '../ports';

/**
 * EventStoreDB orders $all by (commit, prepare), both unsigned 64-bit. Zero-padding each to the
 * 20 digits of 2^64 - 1 makes plain string comparison agree with that order, which the port
 * requires of every position.
 */
const WIDTH = 20;
const MAX_U64 = 2n ** 64n - 1n;
const ENCODED = /^(\d{20}):(\d{20})$/;

function pad(value: bigint, name: string): string {
  if (value < 0n || value > MAX_U64) {
    throw new RangeError(`${name} position ${value} is outside the unsigned 64-bit range`);
  }
  return value.toString(10).padStart(WIDTH, '0');
}

export function encodePosition(position: ClientPosition): Position {
  return `${pad(position.commit, 'commit')}:${pad(position.prepare, 'prepare')}`;
}

export function decodePosition(position: Position): ClientPosition {
  const match = ENCODED.exec(position);
  if (!match) throw new InvalidPosition(position, 'not an EventStoreDB position');
  const commit = BigInt(match[1] as string);
  const prepare = BigInt(match[2] as string);
  if (commit > MAX_U64 || prepare > MAX_U64) {
    throw new InvalidPosition(position, 'EventStoreDB position outside the unsigned 64-bit range');
  }
  return { commit, prepare };
}
