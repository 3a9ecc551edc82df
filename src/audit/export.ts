import { EventStore, InvalidPosition, Position, RecordedEvent, START } from '../stores/ports';
import { ActorNames } from './actor-names';
import { AuditEvent, auditEvent, Describe, storedMetadata } from './event';
import { leafOf } from './proof/leaf';
import { MerkleFrontier } from './proof/merkle';
import { SigningKey } from './proof/signing-key';

/**
 * The last line of an export: where the next one starts, so that a client can resume, and the
 * signed head over every event line before it, so that no line can be taken out unseen.
 */
export interface ExportEnd {
  /** Pass as `from` to continue: the position of the last event exported, or `from` again when none was. */
  next: Position;
  /** Events in this export. */
  count: number;
  /** Whether the log held more events after `next` when this export ended. */
  more: boolean;
  /** The `from` this export was asked for ('' for the beginning of the log). */
  from: Position;
  /** The Merkle root over the events of this export, in order (docs/audit.md). */
  root: string;
  signed_at: string;
  /** Ed25519, base64, over exportHeadPayload. */
  signature: string;
}

/** What an export head's signature covers; `kind` keeps it from passing for a checkpoint. */
export const exportHeadPayload = (h: Omit<ExportEnd, 'signature'>) => ({
  kind: 'export',
  from: h.from,
  next: h.next,
  count: h.count,
  more: h.more,
  root: h.root,
  signed_at: h.signed_at,
});

export type ExportLine = AuditEvent | ExportEnd;

// Read in batches as the consumer pulls, so an export of any length holds one batch in memory.
export const BATCH_SIZE = 500;

/**
 * The global log after `from` (exclusive), at most `limit` events, as audit lines, then the end
 * line. The first batch is read before this resolves, so that a position the store cannot
 * interpret, or one past the log, is refused before anything is streamed.
 */
export async function auditExport(
  events: EventStore,
  names: ActorNames,
  describe: Describe,
  from: Position,
  limit: number,
  key: SigningKey,
): Promise<AsyncGenerator<ExportLine>> {
  // One event more than the limit tells whether the log goes on.
  const wanted = (exported: number) => Math.min(BATCH_SIZE, limit - exported + 1);
  // The head before the read: an export's `next` is never after it, and a later append only adds events.
  const head = await events.headPosition();
  const first = await events.readAll(from, wanted(0));
  // Nothing after `from`, yet `from` is not the head: it lies past the log, and no export gave it.
  if (first.length === 0 && from !== START && from !== head) throw new InvalidPosition(from, 'after the last event of the log');

  async function* lines(): AsyncGenerator<ExportLine> {
    let batch: RecordedEvent[] = first;
    let asked = wanted(0);
    let next = from;
    let count = 0;
    const tree = MerkleFrontier.empty();
    const head = (more: boolean): ExportEnd => {
      const unsigned = { next, count, more, from, root: tree.root().toString('hex'), signed_at: new Date().toISOString() };
      return { ...unsigned, signature: key.sign(exportHeadPayload(unsigned)) };
    };
    for (;;) {
      for (const event of batch) {
        if (count === limit) {
          yield head(true);
          return;
        }
        yield auditEvent(event, await names.of(storedMetadata(event).actor), describe);
        tree.add(leafOf(event));
        next = event.position;
        count += 1;
      }
      if (batch.length < asked) {
        yield head(false);
        return;
      }
      asked = wanted(count);
      batch = await events.readAll(next, asked);
    }
  }
  return lines();
}
