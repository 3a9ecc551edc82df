import { GrowingTree } from './growing-tree';

/**
 * The log read so far, as its checkpoints sign it: the tree of its leaves (src/audit/proof/leaf.ts),
 * the tree of digest leaves that checkpoints signed before the leaves covered every field (kept to
 * check those), and the position of each recent event, over the last `kept` sizes.
 */
export class LogPrefix {
  readonly leaves: GrowingTree;
  readonly digests: GrowingTree;
  private readonly positions = new Map<number, string>();

  constructor(private readonly kept: number) {
    this.leaves = new GrowingTree(kept);
    this.digests = new GrowingTree(kept);
  }

  get count(): number {
    return this.leaves.count;
  }

  add(leaf: Buffer, digestLeaf: Buffer, position: string): void {
    this.leaves.add(leaf);
    this.digests.add(digestLeaf);
    this.positions.set(this.leaves.count, position);
    if (this.positions.size > this.kept) this.positions.delete(this.positions.keys().next().value!);
  }

  /** The prefix of `size` events, when that size is among the last kept. */
  at(size: number): { root: Buffer; digestRoot: Buffer; position: string | null } | undefined {
    const root = this.leaves.rootAt(size);
    const digestRoot = this.digests.rootAt(size);
    if (!root || !digestRoot) return undefined;
    return { root, digestRoot, position: this.positions.get(size) ?? null };
  }
}
