import { DocumentStore, Position } from '../stores/ports';
import { MemberDocument } from './members';

export interface PositionTracker {
  waitFor(position: Position | null | undefined, timeoutMs: number): Promise<void>;
}

/**
 * The query side: documents of the read models, read only after the projections have caught up
 * with the caller's own last write (read-your-writes).
 */
export class ReadModels {
  constructor(
    private readonly documents: DocumentStore,
    private readonly tracker: PositionTracker,
    private readonly waitMs: number,
  ) {}

  async member(id: number, after?: Position): Promise<MemberDocument | null> {
    await this.tracker.waitFor(after, this.waitMs);
    const stored = await this.documents.get<MemberDocument>('members', String(id));
    return stored?.doc ?? null;
  }
}
