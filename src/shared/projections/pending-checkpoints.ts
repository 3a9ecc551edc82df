import type { Logger } from 'pino';
import { DocumentStore, Position } from '../../stores/ports';

/**
 * Checkpoints of projections that ignored the last events, stored on a timer rather than one
 * write each; a write that fails is kept for the next turn unless a newer one came meanwhile.
 */
export class PendingCheckpoints {
  private pending = new Map<string, Position>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly log: Logger,
  ) {}

  set(projection: string, position: Position): void {
    this.pending.set(projection, position);
  }

  delete(projection: string): void {
    this.pending.delete(projection);
  }

  async flush(): Promise<void> {
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
