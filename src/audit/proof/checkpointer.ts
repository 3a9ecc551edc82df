import type { Logger } from 'pino';
import { appendDecided, CommandContext, StreamEnd, streamEnd } from '../../shared/commands/context';
import { Ticker } from '../../shared/ticker';
import { DocumentStore, EventStore, RecordedEvent, WrongExpectedVersion } from '../../stores/ports';
import { Checkpoint, CHECKPOINT_STREAM, CHECKPOINT_TYPE, KeyRotated, KEY_ROTATED_TYPE } from './checkpoint';
import { KeyFiles, KeyRing, openKeyRing, readKeyRing } from './key-ring';
import { signedNote } from './note';
import { treeHeadText } from './tree-head';
import { TreeBuilder } from './tree-store';

const BATCH = 500;
const TICK_MS = 250;

/**
 * Follows the log, keeps its Merkle tree as documents (./tree-store.ts) and, at most every
 * `intervalMs` while events other than its own arrive, appends a checkpoint: a C2SP signed note
 * over the tree of every event so far. Its place in the log is the tree's head, so a restart
 * rereads only what came after it; a log whose checkpoints are all of the legacy format has no
 * tree yet, which is built from the start of the log.
 */
export class AuditCheckpointer {
  private readonly ticker: Ticker;
  private tree: TreeBuilder | null = null;
  /** The end of the checkpoint stream, which the next checkpoint is chained to; each turn reads up to it. */
  private end: StreamEnd = streamEnd(undefined);
  /** When the last checkpoint was signed; the first too waits an interval, counted from the start. */
  private signedAt = Date.now();

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly keys: KeyFiles,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {
    this.ticker = new Ticker(
      () => this.turn(),
      TICK_MS,
      (err) => log.error({ err }, 'the audit checkpointer failed a turn; it tries again on the next'),
    );
  }

  /** Refuses to start with a key that did not sign the log's latest checkpoint (./key-ring.ts). */
  async start(): Promise<void> {
    await openKeyRing(this.keys, this.events);
    this.tree = await TreeBuilder.resume(this.documents);
    await this.readEnd();
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async readEnd(): Promise<void> {
    const [event] = await this.events.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    this.end = streamEnd(event);
  }

  private async turn(): Promise<void> {
    const tree = this.tree!;
    for (;;) {
      const batch = await this.events.readAll(tree.position, BATCH);
      for (const event of batch) this.take(tree, event);
      await tree.flush(this.documents);
      if (batch.length < BATCH) break;
    }
    if (!tree.pending || Date.now() - this.signedAt < this.intervalMs) return;
    try {
      await this.checkpoint(tree, readKeyRing(this.keys));
    } catch (err) {
      if (!(err instanceof WrongExpectedVersion)) throw err;
      // Another checkpointer wrote one (two projectors, against the rules): chain to it next time.
      this.log.warn('another process appended an audit checkpoint; the next one follows it');
      await this.readEnd();
    }
  }

  private take(tree: TreeBuilder, event: RecordedEvent): void {
    tree.add(event);
    if (event.stream !== CHECKPOINT_STREAM) {
      tree.due(event.type === KEY_ROTATED_TYPE ? (event.data as KeyRotated) : undefined);
      return;
    }
    this.end = streamEnd(event);
    if (event.type === CHECKPOINT_TYPE) {
      const { note, size } = event.data as Checkpoint;
      tree.checkpointRead({ size, note, position: event.position });
    }
  }

  private async checkpoint(tree: TreeBuilder, ring: KeyRing): Promise<void> {
    const now = new Date();
    const text = treeHeadText({
      origin: this.keys.origin,
      size: tree.size,
      root: tree.root(),
      time: now.toISOString(),
    });
    const note = signedNote(
      text,
      signersFor(ring, tree.rotation).map((k) => k.noteSigner),
    );
    const checkpoint: Checkpoint = { note, size: tree.size, position: tree.position, frontier: tree.frontier() };
    // Its request id names the tree size: an append retried after an unknown outcome is applied once.
    const ctx: CommandContext = {
      actor: { kind: 'system', id: 'audit-checkpoints' },
      requestId: `audit-checkpoint-${tree.size}`,
      now,
    };
    await appendDecided(this.events, CHECKPOINT_STREAM, [{ type: CHECKPOINT_TYPE, data: checkpoint }], ctx, this.end);
    this.signedAt = now.getTime();
    tree.signed();
    this.log.info({ size: checkpoint.size, position: checkpoint.position }, 'signed an audit checkpoint');
  }
}

/** After a rotation, both keys it names, which links them for an auditor; else the current key. */
function signersFor(ring: KeyRing, rotation: KeyRotated | null): KeyRing['current'][] {
  if (!rotation) return [ring.current];
  const held = [ring.current, ...ring.previous];
  const named = [rotation.previous, rotation.next].map((verifierKey) =>
    held.find((k) => k.noteKey.verifierKey === verifierKey),
  );
  if (named.some((k) => k === undefined)) {
    throw new Error(
      `the log rotated the audit signing key from ${rotation.previous} to ${rotation.next}, and AUDIT_SIGNING_KEY_FILE and its .previous-<hash> files do not hold both`,
    );
  }
  return named as KeyRing['current'][];
}
