/**
 * (e) Projection lag, seen from outside the service and without a hook in it: this process opens
 * the service's embedded data directory (SQLite in WAL mode lets readers in while the service
 * writes) and, about once a millisecond, reads the new events of the log, the documents they
 * concern and every projection's stored checkpoint.
 *
 * An event is visible once every document it changed is stored at its position or later; its lag
 * is the first poll that sees that, minus its metadata.time (the instant the command was decided,
 * just before the append). Which documents an event concerns comes from each projection's own
 * `documentIds`. Not waited for: a document whose projection's checkpoint passed the event (it
 * did not change), and a missing document the projection's `evolve` leaves missing
 * (CredentialApplied concerns api_keys and scope_requests but creates neither), which the runner
 * never writes. Also kept: when every projection's stored checkpoint passed the event, which is
 * what an API process with PROJECTIONS=off waits for; the runner stores the checkpoints of
 * projections with nothing to write on a 100 ms timer.
 *
 * Child process: argv[2] is the data directory; it sends 'ready', and after 'stop' it waits for
 * the events still pending (at most a few seconds), sends its LagFigures and exits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECTIONS } from '../src/compose';
import { documentsOf, evolveOrExplain, Projection } from '../src/shared/projections/projection';
import { DocumentStore, Position, RecordedEvent } from '../src/stores/ports';
import { openSqliteStores } from '../src/stores/sqlite';
import { Distribution, distribution } from './stats';

const DRAIN_MS = 3000;

export interface LagFigures {
  /** Lag until every document the event changed was stored; events that changed none are left out. */
  visible: Distribution;
  /** Events that changed no document. */
  changedNothing: number;
  /** Lag until every projection's stored checkpoint passed the event. */
  everyCheckpoint: Distribution;
  /** Gaps between consecutive polls: the measurement's granularity. */
  pollGapMs: Distribution;
  /** Events still pending when the drain ended. */
  unresolved: number;
}

interface Pending {
  event: RecordedEvent;
  time: number;
  /** Documents not yet seen at the event's position, whose projection's checkpoint has not passed it. */
  waiting: { projection: Projection; id: string }[];
  /** Whether one of its documents was seen changed by it (or by a later event). */
  changed: boolean;
  visibleAt: number | null;
}

function pendingOf(event: RecordedEvent): Pending {
  const waiting = PROJECTIONS.flatMap((projection) => documentsOf(projection, event).map((id) => ({ projection, id })));
  return { event, time: Date.parse(event.metadata.time), waiting, changed: false, visibleAt: null };
}

/** Settles what this poll can tell about the event's documents; answers whether it is now visible. */
async function settle(
  pending: Pending,
  documents: DocumentStore,
  checkpoints: Map<string, Position>,
): Promise<boolean> {
  const { event } = pending;
  const still: Pending['waiting'] = [];
  for (const item of pending.waiting) {
    const stored = await documents.get(item.projection.collection.name, item.id);
    const seen = stored !== null && stored.position >= event.position;
    if (seen) pending.changed = true;
    // Nothing to wait for: the projection's checkpoint passed the event without this document, or
    // the event leaves the missing document missing, which the runner never writes (ProjectionBatch.apply).
    const unchanged =
      checkpoints.get(item.projection.name)! >= event.position ||
      (!stored && evolveOrExplain(item.projection, null, event) === null);
    if (!seen && !unchanged) still.push(item);
  }
  pending.waiting = still;
  return still.length === 0;
}

async function probe(dataDir: string): Promise<void> {
  const { events, documents, close } = openSqliteStores(dataDir);
  let last = await events.headPosition();
  const pending: Pending[] = [];
  const visible: number[] = [];
  const everyCheckpoint: number[] = [];
  const gaps: number[] = [];
  let changedNothing = 0;
  let stopAt = Number.POSITIVE_INFINITY;
  process.once('message', () => (stopAt = Date.now() + DRAIN_MS));
  // The benchmark went away: nobody is left to report to.
  process.once('disconnect', () => process.exit(0));
  process.send!('ready');

  let previous = performance.now();
  while (Date.now() < stopAt) {
    for (const event of await events.readAll(last, 10_000)) {
      pending.push(pendingOf(event));
      last = event.position;
    }
    const checkpoints = new Map<string, Position>();
    for (const { name } of PROJECTIONS) checkpoints.set(name, await documents.checkpoint(name));
    for (const entry of pending) {
      // The time after the reads: a poll never dates a sighting earlier than it made it.
      if (entry.visibleAt === null && (await settle(entry, documents, checkpoints))) entry.visibleAt = Date.now();
    }
    const now = Date.now();
    for (let i = pending.length - 1; i >= 0; i--) {
      const entry = pending[i]!;
      if (entry.visibleAt === null || [...checkpoints.values()].some((c) => c < entry.event.position)) continue;
      if (entry.changed) visible.push(entry.visibleAt - entry.time);
      else changedNothing += 1;
      everyCheckpoint.push(now - entry.time);
      pending.splice(i, 1);
    }
    if (stopAt !== Number.POSITIVE_INFINITY && pending.length === 0) break;
    await sleep(1);
    const at = performance.now();
    gaps.push(at - previous);
    previous = at;
  }
  await close();
  const figures: LagFigures = {
    visible: distribution(visible),
    changedNothing,
    everyCheckpoint: distribution(everyCheckpoint),
    pollGapMs: distribution(gaps),
    unresolved: pending.length,
  };
  process.send!(figures, () => process.exit(0));
}

void probe(process.argv[2]!);
