import pino from 'pino';
import { realisticLog } from '../../../bench/realistic-log';
import { PROJECTIONS } from '../../../src/compose';
import { asideOf, rebuildAside } from '../../../src/shared/projections/rebuild';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { offerRebuild, REBUILD_OFFERS, rebuildOffers } from '../../../src/shared/projections/swap';
import { PROJECTION_VERSIONS } from '../../../src/shared/projections/versions';
import { DocumentStore, DocumentWrite } from '../../../src/stores/ports';
import { appendAll, folded, Scratch, scratchStores, snapshot } from '../projections/lifecycle-support';
import { InjectedOutage } from '../../support/faults';
import { eventually } from '../../support/eventually';

jest.setTimeout(30_000);

// The step fails for the members read model, which the log fills with many documents: losing them would show.
const TARGET = 'members';
type Step = { name: string; fails(operation: string, writes?: DocumentWrite[], target?: string): boolean };
const writesTo = (collection: string, deleting: boolean) => (operation: string, writes?: DocumentWrite[]) =>
  operation === 'write' &&
  (writes ?? []).some((w) => w.collection === collection && w.id === TARGET && (w.doc === null) === deleting);

/** Each step of swapping a rebuild in, before and after the live collection is replaced. */
const STEPS: Step[] = [
  { name: 'marking the offer as being swapped in', fails: writesTo(REBUILD_OFFERS.name, false) },
  {
    name: 'replacing the live collection',
    fails: (operation, _writes, target) => operation === 'replaceCollection' && target === TARGET,
  },
  { name: 'recording the projection version', fails: writesTo(PROJECTION_VERSIONS.name, false) },
  { name: 'withdrawing the offer', fails: writesTo(REBUILD_OFFERS.name, true) },
];

/** The document store with one step of the swap failing, once, as MongoDB failing over would. */
function failingOnce(
  documents: DocumentStore,
  step: Step,
): { documents: DocumentStore; arm: () => void; failed: () => boolean } {
  let armed = false;
  let failed = false;
  const gate = <T>(operation: string, run: () => Promise<T>, writes?: DocumentWrite[], target?: string): Promise<T> => {
    if (armed && step.fails(operation, writes, target)) {
      armed = false;
      failed = true;
      return Promise.reject(new InjectedOutage('document store', operation));
    }
    return run();
  };
  return {
    arm: () => (armed = true),
    failed: () => failed,
    documents: {
      ensureCollections: (specs) => documents.ensureCollections(specs),
      get: (collection, id) => documents.get(collection, id),
      getMany: (collection, ids) => documents.getMany(collection, ids),
      find: (collection, where) => documents.find(collection, where),
      findInRange: (collection, range) => documents.findInRange(collection, range),
      count: (collection) => documents.count(collection),
      write: (writes, checkpoint) => gate('write', () => documents.write(writes, checkpoint), writes),
      fence: (fence) => documents.fence(fence),
      checkpoint: (projection) => documents.checkpoint(projection),
      checkpoints: (projections) => documents.checkpoints(projections),
      dropCollection: (collection) => documents.dropCollection(collection),
      replaceCollection: (target, source, checkpoint) =>
        gate('replaceCollection', () => documents.replaceCollection(target, source, checkpoint), undefined, target),
      resetCheckpoint: (projection) => documents.resetCheckpoint(projection),
      idempotency: documents.idempotency,
      close: () => documents.close(),
    },
  };
}

let scratch: Scratch;
beforeEach(async () => {
  scratch = scratchStores('swap-interrupted-');
  await appendAll(scratch.stores.events, realisticLog(1500));
});
afterEach(() => scratch.close());

describe('a swap interrupted at each step (fault injection)', () => {
  it.each(STEPS)('interrupted at $name, it is retried and ends with complete read models', async (step) => {
    const { events } = scratch.stores;
    const faulty = failingOnce(scratch.stores.documents, step);
    const live = new ProjectionRunner(events, faulty.documents, PROJECTIONS, pino({ level: 'silent' }));
    await live.start();
    await live.waitFor(await events.headPosition(), 5000);

    faulty.arm();
    const built = await rebuildAside(events, scratch.stores.documents, PROJECTIONS);
    for (const projection of PROJECTIONS) await offerRebuild(scratch.stores.documents, projection, built.position);
    // The runner adopts offers every second and tries again a second after a failure.
    await eventually(async () => (await rebuildOffers(scratch.stores.documents)).length === 0, {
      within: 15_000,
      every: 50,
      what: 'the offers adopted',
    });
    expect(faulty.failed()).toBe(true);
    expect(await rebuildOffers(scratch.stores.documents)).toEqual([]);
    expect((await scratch.stores.documents.find(TARGET, {})).length).toBeGreaterThan(100);

    await live.waitFor(await events.headPosition(), 5000);
    const { documents } = scratch.stores;
    expect(await snapshot(documents, PROJECTIONS)).toEqual(await folded(events, PROJECTIONS));
    for (const p of PROJECTIONS) expect(await documents.find(asideOf(p).name, {})).toEqual([]);
    await live.stop();
  });
});
