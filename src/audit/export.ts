import { createHash } from 'node:crypto';
import { EventStore, InvalidPosition, Position, RecordedEvent, START } from '../stores/ports';
import { ActorNames } from './actor-names';
import { auditEvent, Describe, storedMetadata } from './event';
import { ExportHead, exportHeadLine, exportHeadText } from './export-head';
import { leafOf } from './proof/leaf';
import { MerkleFrontier } from './proof/merkle';
import { SigningKey } from './proof/signing-key';

/** One line of an export, its newline included: an event, or, last, the page's signed head. */
export type ExportLine = string;

// Read in batches as the consumer pulls, so an export of any length holds one batch in memory.
export const BATCH_SIZE = 500;

/**
 * The global log after `from` (exclusive), at most `limit` events, as audit lines, then the signed
 * head (./export-head.ts), each line as sent. The first batch is read before this resolves, so
 * that a position the store cannot interpret, or one past the log, is refused before anything is
 * streamed.
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
  if (first.length === 0 && from !== START && from !== head)
    throw new InvalidPosition(from, 'after the last event of the log');

  async function* lines(): AsyncGenerator<ExportLine> {
    let batch: RecordedEvent[] = first;
    let asked = wanted(0);
    let next = from;
    let count = 0;
    const tree = MerkleFrontier.empty();
    const bytes = createHash('sha256');
    const head = (more: boolean): ExportLine => {
      // The signing key is named by the log's origin (AUDIT_LOG_ORIGIN), as its checkpoints are.
      const signed: ExportHead = {
        origin: key.noteKey.name,
        from,
        next,
        count,
        more,
        root: tree.root(),
        lines: bytes.digest(),
        time: new Date().toISOString(),
      };
      return `${JSON.stringify(exportHeadLine(signed, key.signNote(exportHeadText(signed))))}\n`;
    };
    for (;;) {
      for (const event of batch) {
        if (count === limit) {
          yield head(true);
          return;
        }
        const line = `${JSON.stringify(auditEvent(event, await names.of(storedMetadata(event).actor), describe))}\n`;
        bytes.update(line, 'utf8');
        yield line;
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
