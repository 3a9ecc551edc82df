import { setTimeout as sleep } from 'node:timers/promises';
import { DocumentStore, Position } from '../../stores/ports';
import { PositionTracker } from './read-models';
import { ProjectionLag } from './lag';

const POLL_MS = 20;

/**
 * Read-your-writes for an API process that does not run the projections itself
 * (PROJECTIONS=off): the projector process records checkpoints in the document store, and this
 * waits until every projection's stored checkpoint has reached the position.
 */
export class CheckpointTracker implements PositionTracker {
  constructor(
    private readonly documents: DocumentStore,
    private readonly projections: string[],
  ) {}

  async waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void> {
    if (!position) return;
    const names = projection === undefined ? this.projections : [projection];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.reached(position, names)) return;
      if (Date.now() >= deadline) throw new ProjectionLag(position);
      await sleep(POLL_MS);
    }
  }

  private async reached(position: Position, names: string[]): Promise<boolean> {
    const checkpoints = await Promise.all(names.map((name) => this.documents.checkpoint(name)));
    return checkpoints.every((checkpoint) => checkpoint >= position);
  }
}
