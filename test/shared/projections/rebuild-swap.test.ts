import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { Append, realisticLog } from '../../../bench/realistic-log';
import { PROJECTIONS } from '../../../src/compose';
import { asideOf, rebuildAside } from '../../../src/shared/projections/rebuild';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { offerRebuild, rebuildOffers } from '../../../src/shared/projections/swap';
import { appendAll, folded, Scratch, scratchStores, snapshot } from './lifecycle-support';
import { eventually } from '../../support/eventually';

const silent = pino({ level: 'silent' });

// How long the live runner may take to catch up with 6,000 events: a bound for a loaded CI machine
// (2 cores shared with other suites), not a performance claim (docs/performance.md has those).
const CATCH_UP_MS = 20_000;
jest.setTimeout(60_000);

let scratch: Scratch;
let later: Append[];
beforeEach(async () => {
  scratch = scratchStores('rebuild-swap-');
  const appends = [...realisticLog(6000)];
  // The log as it is when the rebuild starts, and what is appended while it runs.
  const split = Math.floor(appends.length * 0.7);
  await appendAll(scratch.stores.events, appends.slice(0, split));
  later = appends.slice(split);
});
afterEach(() => scratch.close());

function runner(): ProjectionRunner {
  return new ProjectionRunner(scratch.stores.events, scratch.stores.documents, PROJECTIONS, silent);
}

async function expectLiveEqualsTheLog(live: ProjectionRunner): Promise<void> {
  const { events, documents } = scratch.stores;
  await live.waitFor(await events.headPosition(), CATCH_UP_MS);
  expect(await snapshot(documents, PROJECTIONS)).toEqual(await folded(events, PROJECTIONS));
  for (const p of PROJECTIONS) expect(await documents.find(asideOf(p).name, {})).toEqual([]);
}

describe('a rebuild built aside, then swapped in', () => {
  it('leaves the live read models serving while it runs, then the running runner swaps it in and carries on', async () => {
    const { events, documents } = scratch.stores;
    const live = runner();
    await live.start();
    await live.waitFor(await events.headPosition(), CATCH_UP_MS);
    const membersBefore = (await documents.find('members', {})).length;

    // Writers keep appending and readers keep reading while the rebuild runs.
    const writing = appendAll(events, later);
    const counts: number[] = [];
    let rebuilding = true;
    const reading = (async () => {
      while (rebuilding) {
        counts.push((await documents.find('members', {})).length);
        await sleep(5);
      }
    })();
    const built = await rebuildAside(events, documents, PROJECTIONS);
    rebuilding = false;
    await reading;
    expect(built.poisoned).toEqual([]);
    // The live collection never looked empty or half-built: it only grew.
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((n, i) => n >= membersBefore && n >= (counts[i - 1] ?? 0))).toBe(true);

    for (const projection of PROJECTIONS) await offerRebuild(documents, projection, built.position);
    await eventually(async () => (await rebuildOffers(documents)).length === 0, {
      within: 15_000,
      what: 'the rebuild swapped in',
    });
    await writing;
    await expectLiveEqualsTheLog(live);
    await live.stop();
  });

  it('offered while no runner runs, is caught up with the live read models and swapped in when the next one starts', async () => {
    const { events, documents } = scratch.stores;
    const first = runner();
    await first.start();
    const built = await rebuildAside(events, documents, PROJECTIONS);
    // The live read models move past the rebuild before it is offered.
    await appendAll(events, later);
    await first.waitFor(await events.headPosition(), CATCH_UP_MS);
    await first.stop();
    for (const projection of PROJECTIONS) await offerRebuild(documents, projection, built.position);

    const next = runner();
    await next.start();
    expect(await rebuildOffers(documents)).toEqual([]);
    await expectLiveEqualsTheLog(next);
    await next.stop();
  });
});
