import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decider } from '../../../src/shared/domain/decider';
import { CommandContext } from '../../../src/shared/commands/context';
import { handle } from '../../../src/shared/commands/handle';
import { allocateId } from '../../../src/shared/commands/ids';
import { MEMBER_IDS } from '../../../src/shared/domain/sequences';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { Stores } from '../../../src/stores/ports';

// Any event type the registry knows, with no data: what is tested is the time each append is recorded at.
type Seeded = { type: 'PlatformSeeded'; data: Record<string, never> };
const noting: Decider<{ text: string }, Seeded, number> = {
  initialState: 0,
  decide: () => [{ type: 'PlatformSeeded', data: {} }],
  evolve: (state) => state + 1,
};
const at = (time: string, requestId = time): CommandContext => ({
  actor: { kind: 'system', id: null },
  requestId,
  now: new Date(time),
});
const timesOf = async (stores: Stores, stream: string) =>
  (await stores.events.readStream(stream)).map((e) => e.metadata.time);

let dir: string;
let stores: Stores;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'event-times-'));
  stores = openSqliteStores(dir);
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the time an event is recorded at', () => {
  it("is the decision's own, or the time of the event it follows when that is later", async () => {
    await handle(stores.events, 'notes-1', noting, { text: 'a' }, at('2025-03-01T10:00:05.000Z'));
    // Decided on a clock 5 s behind (another instance), or for a request that arrived before the first.
    await handle(stores.events, 'notes-1', noting, { text: 'b' }, at('2025-03-01T10:00:00.000Z'));
    await handle(stores.events, 'notes-1', noting, { text: 'c' }, at('2025-03-01T10:00:09.000Z'));
    expect(await timesOf(stores, 'notes-1')).toEqual([
      '2025-03-01T10:00:05.000Z',
      '2025-03-01T10:00:05.000Z',
      '2025-03-01T10:00:09.000Z',
    ]);
  });

  it('never goes back within a stream when requests that arrived in one order are decided at once in another', async () => {
    // Contexts made in arrival order (earliest first), then decided all at once: losers of the race decide again.
    const arrivals = Array.from({ length: 20 }, (_, i) =>
      at(new Date(Date.parse('2025-03-01T10:00:00.000Z') + i).toISOString(), `r${i}`),
    );
    await Promise.all(
      arrivals.reverse().map((ctx) => handle(stores.events, 'notes-2', noting, { text: ctx.requestId }, ctx)),
    );
    const times = await timesOf(stores, 'notes-2');
    expect(times).toHaveLength(20);
    expect(times).toEqual([...times].sort());
  });

  it('never goes back in a sequence either, whose allocations race the most', async () => {
    const arrivals = Array.from({ length: 20 }, (_, i) =>
      at(new Date(Date.parse('2025-03-01T10:00:00.000Z') + 19 - i).toISOString(), `a${i}`),
    );
    const ids = await Promise.all(arrivals.map((ctx) => allocateId(stores.events, MEMBER_IDS, ctx)));
    expect(new Set(ids).size).toBe(20);
    const times = await timesOf(stores, MEMBER_IDS.stream);
    expect(times).toEqual([...times].sort());
  });
});
