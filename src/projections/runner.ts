import type { Logger } from 'pino';
import { DocumentStore, DocumentWrite, EventStore, Position, RecordedEvent, START } from '../stores/ports';
import { evolveOrExplain, Projection } from './projection';
import { PositionWaiters } from './waiters';

export type RunnerStatus = 'stopped' | 'running' | 'failed';

// Checkpoints of events a projection ignores are flushed on a timer rather than one write each.
const CHECKPOINT_FLUSH_MS = 100;

/**
 * Follows the global log from the projections' checkpoints and applies each event to every
 * projection that has not seen it. One subscription serves all projections so they advance
 * together, which keeps `waitFor` a single comparison.
 */
export class ProjectionRunner {
  private checkpoints = new Map<string, Position>();
  private pending = new Map<string, Position>();
  private reached: Position = START;
  private waiters = new PositionWaiters();
  private abort = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  private failure: Error | null = null;
  status: RunnerStatus = 'stopped';

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly projections: Projection[],
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.documents.ensureCollections(this.projections.map((p) => p.collection));
    for (const p of this.projections) this.checkpoints.set(p.name, await this.documents.checkpoint(p.name));
    this.reached = [...this.checkpoints.values()].reduce((a, b) => (a < b ? a : b), this.reached);
    this.status = 'running';
    this.loop = this.follow(this.reached);
    this.flushTimer = setInterval(() => void this.flushCheckpoints(), CHECKPOINT_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Resolves once every projection has applied the event at `position`. */
  waitFor(position: Position | null | undefined, timeoutMs: number): Promise<void> {
    if (!position || this.reached >= position) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return this.waiters.wait(position, timeoutMs);
  }

  position(): Position {
    return this.reached;
  }

  failed(): Error | null {
    return this.failure;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearInterval(this.flushTimer);
    await this.loop;
    await this.flushCheckpoints();
    if (this.status === 'running') this.status = 'stopped';
  }

  private async follow(from: Position): Promise<void> {
    try {
      for await (const event of this.events.subscribeAll(from, this.abort.signal)) {
        for (const projection of this.projections) await this.apply(projection, event);
        this.advance(event.position);
      }
    } catch (err) {
      if (this.abort.signal.aborted) return;
      this.failure = err instanceof Error ? err : new Error(String(err));
      this.status = 'failed';
      this.log.error({ err: this.failure }, 'projection runner stopped on an error');
      this.waiters.failAll(this.failure);
    }
  }

  private async apply(projection: Projection, event: RecordedEvent): Promise<void> {
    const checkpoint = this.checkpoints.get(projection.name) ?? START;
    if (event.position <= checkpoint) return;
    const ids = projection.documentIds(event);
    if (ids.length === 0) {
      this.pending.set(projection.name, event.position);
    } else {
      const collection = projection.collection.name;
      const writes: DocumentWrite[] = [];
      for (const id of ids) {
        const stored = await this.documents.get(collection, id);
        const doc = evolveOrExplain(projection, stored?.doc ?? null, event);
        // An event that leaves a missing document missing needs no tombstone.
        if (stored || doc) writes.push({ collection, id, doc, position: event.position });
      }
      await this.documents.write(writes, { projection: projection.name, position: event.position });
      this.pending.delete(projection.name);
    }
    this.checkpoints.set(projection.name, event.position);
  }

  private advance(position: Position): void {
    this.reached = position;
    this.waiters.reached(position);
  }

  private async flushCheckpoints(): Promise<void> {
    const pending = [...this.pending];
    this.pending.clear();
    for (const [projection, position] of pending) {
      try {
        await this.documents.write([], { projection, position });
      } catch (err) {
        this.log.warn({ err, projection }, 'could not record a projection checkpoint; it will be retried');
        if (!this.pending.has(projection)) this.pending.set(projection, position);
      }
    }
  }
}
