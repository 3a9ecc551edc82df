import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 (Certificate Transparency 2.0), section 2.1, over the log's events
 * in order: a leaf is SHA-256(0x00 || the event's leaf bytes, src/audit/proof/leaf.ts), a node
 * SHA-256(0x01 || left || right), and a tree of n leaves splits at the largest power of two below n.
 */

const sha256 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

export const leafHash = (bytes: Buffer): Buffer => sha256(LEAF, bytes);
export const nodeHash = (left: Buffer, right: Buffer): Buffer => sha256(NODE, left, right);
/** The root of the empty tree: SHA-256 of nothing. */
const EMPTY_ROOT = sha256();

/**
 * A tree that grows one leaf at a time, holding only the roots of its full subtrees (one per bit
 * of the count, largest first): enough to answer the root, never the leaves themselves.
 */
export class MerkleFrontier {
  private constructor(
    private readonly subtrees: Buffer[],
    private size: number,
  ) {}

  static empty(): MerkleFrontier {
    return new MerkleFrontier([], 0);
  }

  /** Resumes from a frontier as `hex()` gave it, for a tree of `count` leaves. */
  static from(hexes: readonly string[], count: number): MerkleFrontier {
    const bits = count.toString(2).replace(/0/g, '').length;
    if (hexes.length !== (count === 0 ? 0 : bits))
      throw new Error(`a frontier of ${count} leaves has ${bits} subtrees, not ${hexes.length}`);
    return new MerkleFrontier(
      hexes.map((h) => Buffer.from(h, 'hex')),
      count,
    );
  }

  get count(): number {
    return this.size;
  }

  /**
   * Adds a leaf; `completed` hears of every node it completes, the leaf first: (level above the
   * leaves, index within the level, hash), which is what a store of the tree's nodes keeps.
   */
  add(leaf: Buffer, completed?: (level: number, index: number, hash: Buffer) => void): void {
    this.subtrees.push(leaf);
    this.size += 1;
    completed?.(0, this.size - 1, leaf);
    // Each trailing 1-bit of the old count is a full subtree the new leaf completes.
    let level = 0;
    for (let carried = this.size; carried % 2 === 0; carried /= 2) {
      const right = this.subtrees.pop()!;
      this.subtrees.push(nodeHash(this.subtrees.pop()!, right));
      level += 1;
      completed?.(level, carried / 2 - 1, this.subtrees.at(-1)!);
    }
  }

  /** MTH of the leaves so far: the subtrees folded from the right. */
  root(): Buffer {
    if (this.subtrees.length === 0) return EMPTY_ROOT;
    let root = this.subtrees[this.subtrees.length - 1]!;
    for (let i = this.subtrees.length - 2; i >= 0; i--) root = nodeHash(this.subtrees[i]!, root);
    return root;
  }

  hex(): string[] {
    return this.subtrees.map((s) => s.toString('hex'));
  }
}

/** MTH(D[n]) of RFC 9162 over the leaf hashes. */
export function treeRoot(leaves: readonly Buffer[]): Buffer {
  const tree = MerkleFrontier.empty();
  for (const leaf of leaves) tree.add(leaf);
  return tree.root();
}
