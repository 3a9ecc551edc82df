import { DocumentStore, DocumentWrite, Position, RecordedEvent, START } from '../../stores/ports';
import { KeyRotated } from './checkpoint';
import { leafOf } from './leaf';
import { MerkleFrontier } from './merkle';
import { HashPlan, hashInTile, hashOf, NodeRef, nodesOf, openTilesOf, tileIdOf, TILE_WIDTH } from './tree-tiles';

/**
 * The log's Merkle tree as the checkpointer's own documents: the node tiles (./tree-tiles.ts) and
 * a head, an index from event id to leaf, and the signed checkpoints by tree size. A proof reads
 * a few documents and never the log; the checkpointer is their one writer.
 */
export const TREE = { name: 'audit_tree', indexes: [] };
export const TREE_LEAVES = { name: 'audit_tree_leaves', indexes: [] };
export const TREE_CHECKPOINTS = { name: 'audit_tree_checkpoints', indexes: [] };
export const TREE_COLLECTIONS = [TREE, TREE_LEAVES, TREE_CHECKPOINTS];
const HEAD = 'head';

/** How far the tree has read the log, and what the checkpointer decides its next checkpoint by. */
export interface TreeHead {
  size: number;
  position: Position;
  /** MerkleFrontier.hex() of the tree of `size` leaves. */
  frontier: string[];
  /** Events other than checkpoints arrived since the last checkpoint was signed. */
  pending: boolean;
  /** A rotation read since the last checkpoint: the next one is signed by both keys. */
  rotation: KeyRotated | null;
  /** The size of the latest checkpoint read, null before the first. */
  checkpoint: number | null;
}

export interface LeafEntry {
  index: number;
  /** The position just before the event, where one readAll finds it again for its leaf bytes. */
  after: Position;
}

export interface CheckpointEntry {
  size: number;
  note: string;
  position: Position;
}

interface TileDoc {
  hashes: string;
}

const EMPTY: TreeHead = { size: 0, position: START, frontier: [], pending: false, rotation: null, checkpoint: null };

/** What the proofs read. */
export class AuditTree {
  constructor(private readonly documents: DocumentStore) {}

  async head(): Promise<TreeHead | null> {
    return (await this.documents.get<TreeHead>(TREE.name, HEAD))?.doc ?? null;
  }

  async leaf(eventId: string): Promise<LeafEntry | null> {
    return (await this.documents.get<LeafEntry>(TREE_LEAVES.name, eventId))?.doc ?? null;
  }

  async checkpoint(size: number): Promise<CheckpointEntry | null> {
    return (await this.documents.get<CheckpointEntry>(TREE_CHECKPOINTS.name, String(size)))?.doc ?? null;
  }

  /** The plans' hashes, their tiles read in one go; throws when a node is not stored (the tree is behind). */
  async hashes(plans: readonly HashPlan[]): Promise<Buffer[]> {
    const ids = [...new Set(plans.flatMap(nodesOf).map(tileIdOf))];
    const found = await this.documents.getMany<TileDoc>(TREE.name, ids);
    const tiles = new Map(ids.map((id, i) => [id, Buffer.from(found[i]?.doc.hashes ?? '', 'base64')]));
    const nodeAt = (node: NodeRef): Buffer => {
      const hash = hashInTile(tiles.get(tileIdOf(node))!, node);
      if (!hash)
        throw new Error(
          `the audit tree holds no node ${node.level}/${node.index}: its read model is behind its checkpoints`,
        );
      return hash;
    };
    return plans.map((plan) => hashOf(plan, nodeAt));
  }
}

/**
 * Grows the stored tree event by event; `flush` writes what changed since the last, the head last,
 * each document guarded by the position of the last event read, so a replay changes nothing.
 */
export class TreeBuilder {
  private readonly tree: MerkleFrontier;
  /** Tiles still growing, and those changed since the last flush. */
  private readonly tiles: Map<string, Buffer[]>;
  private readonly touched = new Set<string>();
  private writes: DocumentWrite[] = [];

  private constructor(
    private readonly head: TreeHead,
    tiles: Map<string, Buffer[]>,
  ) {
    this.tree = MerkleFrontier.from(head.frontier, head.size);
    this.tiles = tiles;
  }

  static async resume(documents: DocumentStore): Promise<TreeBuilder> {
    await documents.ensureCollections(TREE_COLLECTIONS);
    const head = (await new AuditTree(documents).head()) ?? { ...EMPTY };
    const open = openTilesOf(head.size);
    const stored = await documents.getMany<TileDoc>(TREE.name, open);
    return new TreeBuilder(
      head,
      new Map(open.map((id, i) => [id, hashesIn(Buffer.from(stored[i]?.doc.hashes ?? '', 'base64'))])),
    );
  }

  get size(): number {
    return this.tree.count;
  }

  /** The position of the last event read. */
  get position(): Position {
    return this.head.position;
  }

  /** Whether events other than checkpoints arrived since the last checkpoint was signed. */
  get pending(): boolean {
    return this.head.pending;
  }

  get rotation(): KeyRotated | null {
    return this.head.rotation;
  }

  /** An event other than a checkpoint was read: a checkpoint is due, signed by both keys after a rotation. */
  due(rotation?: KeyRotated): void {
    this.head.pending = true;
    if (rotation) this.head.rotation = rotation;
  }

  /** A checkpoint was signed over the tree as it is now. */
  signed(): void {
    this.head.pending = false;
    this.head.rotation = null;
  }

  root(): Buffer {
    return this.tree.root();
  }

  frontier(): string[] {
    return this.tree.hex();
  }

  add(event: RecordedEvent): void {
    if (event.id)
      this.writes.push({
        collection: TREE_LEAVES.name,
        id: event.id,
        doc: { index: this.tree.count, after: this.head.position },
        position: event.position,
      });
    this.tree.add(leafOf(event), (level, index, hash) => this.store({ level, index }, hash));
    this.head.position = event.position;
  }

  /** A checkpoint read from the log: found by its size from now on. */
  checkpointRead(entry: CheckpointEntry): void {
    this.writes.push({
      collection: TREE_CHECKPOINTS.name,
      id: String(entry.size),
      doc: { ...entry },
      position: this.head.position,
    });
    this.head.checkpoint = Math.max(entry.size, this.head.checkpoint ?? 0);
  }

  async flush(documents: DocumentStore): Promise<void> {
    if (this.head.position === START) return;
    const position = this.head.position;
    const tiles = [...this.touched].map((id) => ({
      collection: TREE.name,
      id,
      doc: { hashes: Buffer.concat(this.tiles.get(id)!).toString('base64') },
      position,
    }));
    const head = {
      collection: TREE.name,
      id: HEAD,
      doc: { ...this.head, size: this.tree.count, frontier: this.tree.hex() },
      position,
    };
    await documents.write([...tiles, ...this.writes, head]);
    for (const id of this.touched) if (this.tiles.get(id)!.length === TILE_WIDTH) this.tiles.delete(id);
    this.touched.clear();
    this.writes = [];
  }

  private store(node: NodeRef, hash: Buffer): void {
    const id = tileIdOf(node);
    const tile = this.tiles.get(id) ?? [];
    tile.push(hash);
    this.tiles.set(id, tile);
    this.touched.add(id);
  }
}

const hashesIn = (tile: Buffer): Buffer[] =>
  Array.from({ length: tile.length / 32 }, (_, i) => tile.subarray(i * 32, i * 32 + 32));
