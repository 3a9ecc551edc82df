import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckpointTracker } from '../../../src/shared/projections/checkpoint-tracker';
import { ProjectionLag } from '../../../src/shared/projections/lag';
import { DocumentStore, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const AT = '00000000000000000005';

let dir: string;
let stores: Stores;
let reads: number;
let tracker: CheckpointTracker;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpoint-tracker-'));
  stores = openSqliteStores(dir);
  reads = 0;
  const documents = stores.documents;
  const counting = {
    checkpoints: (names: string[]) => (reads++, documents.checkpoints(names)),
  } as unknown as DocumentStore;
  tracker = new CheckpointTracker(counting, NAMES);
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const projectorReaches = (position: string) =>
  Promise.all(NAMES.map((projection) => stores.documents.write([], { projection, position })));

describe('waiting on a projector process checkpoints (PROJECTIONS=off)', () => {
  it('a hundred concurrent waiters share one poll, and each is released once every checkpoint has reached its write', async () => {
    const started = Date.now();
    const waits = Array.from({ length: 100 }, () => tracker.waitFor(AT, 2000));
    await sleep(200);
    await projectorReaches(AT);
    await Promise.all(waits);
    const rounds = (Date.now() - started) / 20 + 3;
    // One query for every checkpoint per round, not one per waiter (100 waiters polling alone would
    // read about 100 times as many) nor one per projection.
    expect(reads).toBeLessThanOrEqual(rounds);
    expect(reads).toBeGreaterThan(0);
  });

  it('a waiter whose write the projector does not reach in time gets ProjectionLag; with nobody waiting, nothing is read', async () => {
    await expect(tracker.waitFor(AT, 100)).rejects.toThrow(ProjectionLag);
    await sleep(50);
    const after = reads;
    await sleep(100);
    expect(reads).toBe(after);
  });

  it('a waiter for one projection is released by that projection alone', async () => {
    const waiting = tracker.waitFor(AT, 2000, 'c');
    await stores.documents.write([], { projection: 'c', position: AT });
    await expect(waiting).resolves.toBeUndefined();
    await expect(tracker.waitFor(AT, 100)).rejects.toThrow(ProjectionLag);
  });
});
