import { nodeHash } from './merkle';

/** A full subtree's root, and the ones to its left: a frontier that later leaves never change. */
interface Subtree {
  hash: Buffer;
  leaves: number;
  left: Subtree | null;
}

/**
 * A Merkle tree (RFC 9162) that grows one leaf at a time and answers its root at any of its
 * last `kept` sizes: a checkpoint is appended a few events after the last one it covers, and the
 * verifier reads it then. The frontiers share their subtrees, so each size kept costs one node.
 */
export class GrowingTree {
  private top: Subtree | null = null;
  private size = 0;
  private readonly frontiers = new Map<number, Subtree | null>([[0, null]]);

  constructor(private readonly kept: number) {}

  get count(): number {
    return this.size;
  }

  add(leaf: Buffer): void {
    let top: Subtree = { hash: leaf, leaves: 1, left: this.top };
    while (top.left && top.left.leaves === top.leaves)
      top = { hash: nodeHash(top.left.hash, top.hash), leaves: top.leaves * 2, left: top.left.left };
    this.top = top;
    this.size += 1;
    this.frontiers.set(this.size, top);
    // Sizes are added in order, so the first key is the oldest.
    if (this.frontiers.size > this.kept) this.frontiers.delete(this.frontiers.keys().next().value!);
  }

  /** The root at `size` leaves, or undefined when that size is no longer (or not yet) kept. */
  rootAt(size: number): Buffer | undefined {
    const top = this.frontiers.get(size);
    if (top === undefined) return undefined;
    if (top === null) return EMPTY_ROOT;
    let root = top.hash;
    for (let subtree = top.left; subtree; subtree = subtree.left) root = nodeHash(subtree.hash, root);
    return root;
  }

  root(): Buffer {
    return this.rootAt(this.size)!;
  }
}

const EMPTY_ROOT = Buffer.from('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'hex');
