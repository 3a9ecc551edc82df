import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { START, type NewEvent, type RecordedEvent, type Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { InjectedOutage, faultyStores } from '../../support/faults';

function event(type: string): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'cli', id: null }, request_id: randomUUID(), time: new Date().toISOString() },
  };
}

let dir: string;
let embedded: Stores;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-faults-'));
  embedded = openSqliteStores(dir);
});
afterEach(async () => {
  await embedded.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('fault-injection wrapper over the store ports', () => {
  it('fails every operation during a failing outage, changes nothing, and passes them again after it', async () => {
    const { stores, events, documents } = faultyStores(embedded);
    events.outage('fail', 200);
    await expect(stores.events.append('s', [event('A')], 'no_stream')).rejects.toBeInstanceOf(InjectedOutage);
    await expect(stores.events.readStream('s')).rejects.toThrow('event store is unreachable');
    expect(await embedded.events.readStream('s')).toEqual([]);
    // Only the event store is down.
    await expect(stores.documents.checkpoint('p')).resolves.toBe(START);
    expect((await stores.health()).filter((h) => !h.ok)).toEqual([
      { name: 'event store', ok: false, detail: 'injected fail outage' },
    ]);

    documents.outage('fail', 200);
    await expect(
      stores.documents.write([], { projection: 'p', position: '00000000000000000001' }),
    ).rejects.toBeInstanceOf(InjectedOutage);
    expect(await embedded.documents.checkpoint('p')).toBe(START);

    await delay(250);
    await expect(stores.events.append('s', [event('A')], 'no_stream')).resolves.toMatchObject({
      nextExpectedRevision: 0,
    });
    expect(await stores.health()).toEqual(await embedded.health());
  });

  it('holds every operation during a stalling outage until it ends', async () => {
    const { stores, events } = faultyStores(embedded);
    events.outage('stall', 300);
    const started = Date.now();
    const append = stores.events.append('s', [event('A')], 'no_stream');
    await delay(100);
    expect(await embedded.events.readStream('s')).toEqual([]);
    await expect(append).resolves.toMatchObject({ nextExpectedRevision: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('keeps a subscription through an outage: tells of the drop, holds events, then delivers all of them in order', async () => {
    const { stores, events } = faultyStores(embedded);
    const told: string[] = [];
    const abort = new AbortController();
    const seen: RecordedEvent[] = [];
    const following = (async () => {
      const observer = { onLive: () => told.push('live'), onDropped: () => told.push('dropped') };
      for await (const e of stores.events.subscribeAll(START, abort.signal, observer)) {
        seen.push(e);
        if (seen.length === 3) abort.abort();
      }
    })();
    await embedded.events.append('s', [event('A')], 'no_stream');
    await delay(150);
    expect(seen.map((e) => e.type)).toEqual(['A']);

    events.outage('fail', 300);
    // Committed by another writer while this subscriber cannot hear of it.
    await embedded.events.append('s', [event('B'), event('C')], 0);
    await delay(150);
    expect(seen.map((e) => e.type)).toEqual(['A']);
    expect(told).toEqual(['live', 'dropped']);

    await following;
    expect(seen.map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(told).toEqual(['live', 'dropped', 'live']);
  });
});
