import { setTimeout as sleep } from 'node:timers/promises';
import { DocumentStore, Position, START } from '../../stores/ports';
import { PositionTracker } from './read-models';
import { PositionWaiters } from './waiters';

const POLL_MS = 20;
// The waiters of every projection at once, beside those of one named projection.
const EVERY = Symbol('every projection');

/**
 * Read-your-writes for an API process that does not run the projections itself
 * (PROJECTIONS=off): the projector process records checkpoints in the document store, and this
 * waits until the stored checkpoints have reached the position. However many requests wait, one
 * poll reads the checkpoints (one query for all) every POLL_MS while anyone waits, and none when nobody does.
 */
export class CheckpointTracker implements PositionTracker {
  /** The checkpoints as last read: they only move forward, so each is a lower bound. */
  private readonly known = new Map<string, Position>();
  private readonly waiters = new Map<string | typeof EVERY, PositionWaiters>();
  private polling = false;

  constructor(
    private readonly documents: DocumentStore,
    private readonly projections: string[],
  ) {}

  waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void> {
    if (!position) return Promise.resolve();
    const key = projection ?? EVERY;
    if (this.reachedBy(key) >= position) return Promise.resolve();
    let waiters = this.waiters.get(key);
    if (!waiters) this.waiters.set(key, (waiters = new PositionWaiters()));
    const waiting = waiters.wait(position, timeoutMs);
    void this.poll();
    return waiting;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.anyoneWaits()) {
        // A store that does not answer leaves the waiters to their own deadlines (ProjectionLag).
        await this.read().catch(() => undefined);
        for (const [key, waiters] of this.waiters) waiters.reached(this.reachedBy(key));
        if (this.anyoneWaits()) await sleep(POLL_MS);
      }
    } finally {
      this.polling = false;
    }
  }

  private async read(): Promise<void> {
    const checkpoints = await this.documents.checkpoints(this.projections);
    this.projections.forEach((name, i) => this.known.set(name, checkpoints[i] ?? START));
  }

  private reachedBy(key: string | typeof EVERY): Position {
    if (key !== EVERY) return this.known.get(key) ?? START;
    const all = this.projections.map((name) => this.known.get(name) ?? START);
    return all.reduce((a, b) => (a < b ? a : b), all[0] ?? START);
  }

  private anyoneWaits(): boolean {
    return [...this.waiters.values()].some((waiters) => waiters.size > 0);
  }
}
