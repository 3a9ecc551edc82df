import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { beat, HEARTBEAT_MS, HEARTBEATS, projectorStatus } from '../../../src/shared/projections/heartbeat';
import { Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';

let dir: string;
let stores: Stores;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'heartbeat-'));
  stores = openSqliteStores(dir);
  await stores.documents.ensureCollections([HEARTBEATS]);
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const projector = (status: string) => ({ status, position: () => '00000000000000000007' });

describe("the projector's heartbeat, as an API with PROJECTIONS=off reads it", () => {
  it('is absent before any projector ran', async () => {
    expect(await projectorStatus(stores.documents)).toEqual({ status: 'absent', position: null, age_ms: null });
  });

  it("carries the runner's status, and the last beat of a clean stop says stopped", async () => {
    const source = { status: 'running', position: () => '00000000000000000007' };
    const stop = await beat(stores.documents, source, pino({ level: 'silent' }));
    const running = await projectorStatus(stores.documents);
    expect(running).toMatchObject({ status: 'running', position: '00000000000000000007' });
    expect(running.age_ms).toBeLessThan(HEARTBEAT_MS);
    source.status = 'stopped';
    await stop();
    expect((await projectorStatus(stores.documents)).status).toBe('stopped');
  });

  it('records the stopping beat even when it falls in the same millisecond as the one before', async () => {
    const source = { status: 'running', position: () => '00000000000000000007' };
    const sameInstant = new Date();
    const stop = await beat(stores.documents, source, pino({ level: 'silent' }), undefined, () => sameInstant);
    source.status = 'stopped';
    await stop();
    expect((await projectorStatus(stores.documents)).status).toBe('stopped');
  });

  it('goes stale after three missed beats: a projector that died or hung without a word', async () => {
    const stop = await beat(stores.documents, projector('running'), pino({ level: 'silent' }));
    await stop();
    const later = () => Date.now() + 3 * HEARTBEAT_MS + 1000;
    expect(await projectorStatus(stores.documents, later)).toMatchObject({
      status: 'stale',
      age_ms: expect.any(Number),
    });
    expect((await projectorStatus(stores.documents, later)).age_ms).toBeGreaterThan(3 * HEARTBEAT_MS);
  });
});
