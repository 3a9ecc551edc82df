import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { PROJECTIONS } from '../../../src/compose';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { Position, Stores } from '../../../src/stores/ports';
import { scratchStores, snapshot } from '../../shared/projections/lifecycle-support';

/** Resolves with the head once every projection's stored checkpoint has reached it. */
export async function caughtUp(stores: Stores, timeoutMs: number): Promise<Position> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const head = await stores.events.headPosition();
    const checkpoints = await Promise.all(PROJECTIONS.map((p) => stores.documents.checkpoint(p.name)));
    if (checkpoints.every((c) => c === head)) return head;
    if (Date.now() > deadline)
      throw new Error(`projections still behind the head ${head} after ${timeoutMs} ms: ${checkpoints.join(', ')}`);
    await sleep(50);
  }
}

/**
 * The live read models equal those a rebuild from the whole log writes into an empty document
 * store, collection by collection: every document and the position of the last event applied.
 */
export async function expectReadModelsEqualRebuild(stores: Stores, head: Position): Promise<void> {
  const scratch = scratchStores('reliability-rebuild-');
  const rebuild = new ProjectionRunner(stores.events, scratch.stores.documents, PROJECTIONS, pino({ level: 'silent' }));
  try {
    await rebuild.start();
    await rebuild.waitFor(head, 60_000);
    const live = await snapshot(stores.documents, PROJECTIONS);
    const rebuilt = await snapshot(scratch.stores.documents, PROJECTIONS);
    for (const { collection } of PROJECTIONS) {
      expect([collection.name, live[collection.name]]).toEqual([collection.name, rebuilt[collection.name]]);
    }
  } finally {
    await rebuild.stop();
    await scratch.close();
  }
}
