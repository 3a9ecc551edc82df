import { nodeHash } from './merkle';
import { Range, splitOf } from './paths';

/**
 * Where the tree's node hashes are kept: every complete node, level by level (0: the leaves),
 * in tiles of TILE_WIDTH consecutive nodes of one level. A node never changes once complete, so a
 * proof for any tree size reads the nodes it needs and hashes only the few that join the
 * incomplete right edge of the tree.
 */
export const TILE_WIDTH = 256;
const HASH = 32;

/** A complete node: the root of the 2^level leaves from index × 2^level. */
export interface NodeRef {
  level: number;
  index: number;
}

export const tileIdOf = ({ level, index }: NodeRef): string => `${level}/${Math.floor(index / TILE_WIDTH)}`;

/** How MTH(D[lo:hi]) is made of complete nodes: one node, or the hash of two plans (RFC 9162, 2.1.1). */
export type HashPlan = NodeRef | readonly [HashPlan, HashPlan];

export function planOf([lo, hi]: Range): HashPlan {
  const size = hi - lo;
  const level = Math.log2(size);
  if (Number.isInteger(level) && lo % size === 0) return { level, index: lo / size };
  const k = splitOf(size);
  return [planOf([lo, lo + k]), planOf([lo + k, hi])];
}

export function nodesOf(plan: HashPlan): NodeRef[] {
  return Array.isArray(plan) ? [...nodesOf(plan[0] as HashPlan), ...nodesOf(plan[1] as HashPlan)] : [plan as NodeRef];
}

/** The plan's hash, from the nodes' hashes as `nodeAt` reads them from their tiles. */
export function hashOf(plan: HashPlan, nodeAt: (node: NodeRef) => Buffer): Buffer {
  if (!Array.isArray(plan)) return nodeAt(plan as NodeRef);
  return nodeHash(hashOf(plan[0] as HashPlan, nodeAt), hashOf(plan[1] as HashPlan, nodeAt));
}

/** The node's hash within its tile's bytes (the level's hashes from the tile's first, end to end). */
export function hashInTile(tile: Buffer, { index }: NodeRef): Buffer | undefined {
  const at = (index % TILE_WIDTH) * HASH;
  return at + HASH <= tile.length ? tile.subarray(at, at + HASH) : undefined;
}

/** The tiles a tree of `size` leaves has left incomplete, one per level at most: those its next leaves add to. */
export function openTilesOf(size: number): string[] {
  const open: string[] = [];
  for (let level = 0, count = size; count > 0; level++, count = Math.floor(count / 2)) {
    if (count % TILE_WIDTH !== 0) open.push(tileIdOf({ level, index: count }));
  }
  return open;
}
