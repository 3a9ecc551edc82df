import pino from 'pino';
import { Projection } from '../../../src/shared/projections/projection';
import { ProjectionLag } from '../../../src/shared/projections/lag';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { NewEvent, Stores } from '../../../src/stores/ports';
import { Scratch, scratchStores } from './lifecycle-support';

/** Counts the events of each stream: any event applied twice or lost shows in the count. */
const counter: Projection<{ stream: string; count: number; revisions: number[] }> = {
  name: 'counter',
  version: 1,
  collection: { name: 'counts', indexes: [] },
  handles: ['PlatformSeeded', 'Poison'],
  documentIds: (event) => (event.stream.startsWith('counted-') ? [event.stream] : []),
  evolve: (doc, event) => {
    return {
      stream: event.stream,
      count: (doc?.count ?? 0) + 1,
      revisions: [...(doc?.revisions ?? []), event.revision],
    };
  },
};

const silent = pino({ level: 'silent' });
// A valid event of a type the service knows; any other type cannot be applied (src/shared/domain/events.ts).
const event = (type = 'PlatformSeeded'): NewEvent => ({
  type,
  data: {},
  metadata: { actor: { kind: 'system', id: null }, request_id: 'test', time: new Date(0).toISOString() },
});

let scratch: Scratch;
let stores: Stores;
beforeEach(() => {
  scratch = scratchStores('runner-');
  stores = scratch.stores;
});
afterEach(() => scratch.close());

async function count(stream: string): Promise<number | undefined> {
  return (await stores.documents.get<{ count: number }>('counts', stream))?.doc.count;
}

function runner(): ProjectionRunner {
  return new ProjectionRunner(stores.events, stores.documents, [counter as unknown as Projection], silent);
}

/** A runner that projects the stream's first events, then stops: the state a restart starts from. */
async function projectThenStop(stream: string): Promise<string> {
  const r = runner();
  await r.start();
  const { position } = await stores.events.append(stream, [event(), event()], 'no_stream');
  await r.waitFor(position, 2000);
  await r.stop();
  return position;
}

describe('projection runner', () => {
  it('applies new events and lets a reader wait for its own write', async () => {
    const r = runner();
    await r.start();
    const { position } = await stores.events.append('counted-a', [event(), event()], 'no_stream');
    await r.waitFor(position, 2000);
    expect(await count('counted-a')).toBe(2);
    await r.stop();
  });

  it('resumes from its checkpoint after a restart: nothing lost, nothing applied twice', async () => {
    await projectThenStop('counted-b');

    await stores.events.append('counted-b', [event()], 1);
    await stores.events.append('other-stream', [event()], 'no_stream');
    const second = runner();
    await second.start();
    await second.waitFor(await stores.events.headPosition(), 2000);
    expect(await count('counted-b')).toBe(3);
    expect((await stores.documents.get<{ revisions: number[] }>('counts', 'counted-b'))?.doc.revisions).toEqual([
      0, 1, 2,
    ]);
    await second.stop();
  });

  it('changes nothing when events are replayed over documents that already have them', async () => {
    const position = await projectThenStop('counted-c');

    // A crash between a document write and its checkpoint replays events: simulate the worst case.
    await stores.documents.resetCheckpoint('counter');
    const replay = runner();
    await replay.start();
    await replay.waitFor(position, 2000);
    expect(await count('counted-c')).toBe(2);
    await replay.stop();
  });

  it('stops at the end of the log: events appended just before stop() are applied and their checkpoint stored', async () => {
    const r = runner();
    await r.start();
    for (let i = 0; i < 20; i += 1)
      await stores.events.append(
        `counted-stop-${i}`,
        Array.from({ length: 50 }, () => event()),
        'no_stream',
      );
    const head = await stores.events.headPosition();
    await r.stop();
    expect(await stores.documents.checkpoint('counter')).toBe(head);
    expect(await count('counted-stop-19')).toBe(50);
  });

  it('refuses to answer stale data: waitFor fails with ProjectionLag when the position is not reached in time', async () => {
    const r = runner();
    await r.start();
    await expect(r.waitFor('99999999999999999999', 50)).rejects.toBeInstanceOf(ProjectionLag);
    await r.stop();
  });

  it('stops on an event it cannot apply, reports failed, and fails waiting readers', async () => {
    const r = runner();
    await r.start();
    const { position } = await stores.events.append('counted-d', [event(), event('Poison')], 'no_stream');
    await expect(r.waitFor(position, 2000)).rejects.toThrow(/cannot apply Poison/);
    expect(r.status).toBe('failed');
    expect(await count('counted-d')).toBe(1);
    await r.stop();
  });
});
