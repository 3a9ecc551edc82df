import { randomBytes } from 'node:crypto';
import type { DocumentWrite, Position } from '../../src/stores/ports';

/** What the document store's contract files share: names no other test uses, positions, writes. */

/** A collection (or projection) name no other test uses, valid for every adapter. */
export function newName(): string {
  return `c_${randomBytes(6).toString('hex')}`;
}

/** Positions are opaque to the document store; these sort like real ones. */
export function at(n: number): Position {
  return String(n).padStart(20, '0');
}

export function put(
  collection: string,
  id: string,
  doc: Record<string, unknown> | null,
  position: number,
): DocumentWrite {
  return { collection, id, doc, position: at(position) };
}
