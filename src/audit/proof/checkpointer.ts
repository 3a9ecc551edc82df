import type { Logger } from 'pino';
import { appendDecided, CommandContext } from '../../shared/commands/context';
import { Ticker } from '../../shared/ticker';
import { EventStore, RecordedEvent, START, WrongExpectedVersion } from '../../stores/ports';
import { Checkpoint, checkpointPayload, CHECKPOINT_STREAM, CHECKPOINT_TYPE } from './checkpoint';
import { leafOf } from './leaf';
import { MerkleFrontier } from './merkle';
import { SigningKey } from './signing-key';

const BATCH = 500;
const TICK_MS = 250;


/**
 * Follows the log and, at most every `intervalMs` while events other than its own arrive, appends a
 * signed checkpoint over every event so far. Its place in the log is its last checkpoint, whose
 * frontier it resumes from, so a restart rereads only what came after it.
 */
export class AuditCheckpointer {
  private readonly ticker: Ticker;
  private tree = MerkleFrontier.empty();
  private position = START;
  private last: { number: number; revision: number; digest: string | null; at: number } | null = null;
  /** Events other than checkpoints read since the last checkpoint. */
  private pending = false;
  /** The first checkpoint too waits an interval, counted from the start. */
  private readonly startedAt = Date.now();

  constructor(
    private readonly events: EventStore,
    private readonly key: SigningKey,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {
    this.ticker = new Ticker(() => this.turn(), TICK_MS, (err) => log.error({ err }, 'the audit checkpointer failed a turn; it tries again on the next'));
  }

  async start(): Promise<void> {
    await this.resume();
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  /** From the last checkpoint, or from the start of the log when there is none. */
  private async resume(): Promise<void> {
    this.tree = MerkleFrontier.empty();
    this.position = START;
    this.last = null;
    this.pending = false;
    const [event] = await this.events.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    if (!event) return;
    const checkpoint = event.data as Checkpoint;
    this.tree = MerkleFrontier.from(checkpoint.frontier, checkpoint.count);
    this.position = checkpoint.position;
    this.last = { number: checkpoint.number, revision: event.revision, digest: event.metadata.digest ?? null, at: Date.parse(checkpoint.signed_at) };
  }

  private async turn(): Promise<void> {
    for (;;) {
      const batch = await this.events.readAll(this.position, BATCH);
      for (const event of batch) this.take(event);
      if (batch.length < BATCH) break;
    }
    if (!this.pending || Date.now() - (this.last?.at ?? this.startedAt) < this.intervalMs) return;
    try {
      await this.checkpoint();
    } catch (err) {
      if (!(err instanceof WrongExpectedVersion)) throw err;
      // Another checkpointer wrote one (two projectors, against the rules): start again after it.
      this.log.warn('another process appended an audit checkpoint; resuming after it');
      await this.resume();
    }
  }

  private take(event: RecordedEvent): void {
    this.tree.add(leafOf(event));
    this.position = event.position;
    if (event.stream !== CHECKPOINT_STREAM) {
      this.pending = true;
    } else if (this.last) {
      // The one just appended: the next one links to it.
      this.last.digest = event.metadata.digest ?? null;
    }
  }

  private async checkpoint(): Promise<void> {
    const now = new Date();
    const number = (this.last?.number ?? 0) + 1;
    const covered = { number, position: this.position, count: this.tree.count, root: this.tree.root().toString('hex'), signed_at: now.toISOString() };
    const checkpoint: Checkpoint = { ...covered, signature: this.key.sign(checkpointPayload(covered)), frontier: this.tree.hex() };
    // Its request id names the checkpoint: an append retried after an unknown outcome is applied once.
    const ctx: CommandContext = { actor: { kind: 'system', id: 'audit-checkpoints' }, requestId: `audit-checkpoint-${number}`, now };
    const end = this.last ? { expected: this.last.revision, digest: this.last.digest } : ({ expected: 'no_stream', digest: null } as const);
    const { nextExpectedRevision } = await appendDecided(this.events, CHECKPOINT_STREAM, [{ type: CHECKPOINT_TYPE, data: checkpoint }], ctx, end);
    this.last = { number, revision: nextExpectedRevision, digest: null, at: now.getTime() };
    this.pending = false;
    this.log.info({ checkpoint: number, position: covered.position, count: covered.count }, 'signed an audit checkpoint');
  }
}
