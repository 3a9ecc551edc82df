import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { PROJECTIONS } from '../../../src/compose';
import { credentialStream } from '../../../src/credential/decider';
import { apiKeysProjection } from '../../../src/credential/projections/api-keys';
import { ProjectionRunner, RunnerOptions } from '../../../src/shared/projections/runner';
import { Position, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { FaultSwitch, faultyStores } from '../../support/faults';
import { eventually } from '../../support/eventually';
import { applied, approved, claimed } from '../../credential/fixtures';

jest.setTimeout(40_000);

const OUTAGE_MS = 10_000;
const MEMBERS = 20;

let dir: string;
let stores: Stores;
let faulty: ReturnType<typeof faultyStores>;
let runner: ProjectionRunner;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'projector-outage-'));
  stores = openSqliteStores(dir);
  faulty = faultyStores(stores);
});
afterEach(async () => {
  faulty.events.heal();
  faulty.documents.heal();
  await runner.stop();
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startRunner(options: RunnerOptions = {}): Promise<void> {
  runner = new ProjectionRunner(
    faulty.stores.events,
    faulty.stores.documents,
    PROJECTIONS,
    pino({ level: 'silent' }),
    options,
  );
  await runner.start();
}

/** A member's credential, claimed: appended straight to the event store, as an API instance that still reaches it does. */
function claim(member_id: number): Promise<Position> {
  const metadata = {
    actor: { kind: 'admin' as const, id: 1 },
    request_id: `claim-${member_id}`,
    time: new Date().toISOString(),
  };
  const events = [
    applied(member_id),
    approved(member_id),
    claimed(`ak_${String(member_id).padStart(20, 'a')}`, `k${member_id}`, member_id),
  ];
  const list = events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata }));
  return stores.events.append(credentialStream(member_id), list, 'no_stream').then((r) => r.position);
}

/** Drives one outage of `faults` while members claim credentials; the read model must hold every one of them afterwards. */
async function survives(faults: FaultSwitch): Promise<void> {
  await startRunner();
  await runner.waitFor(await claim(1), 2000);
  faults.outage('fail', OUTAGE_MS);
  const started = Date.now();
  let last: Position = '';
  for (let member = 2; member <= MEMBERS; member++) last = await claim(member);

  // Not ready while it lasts, and said so within a second of its start.
  await eventually(() => runner.status === 'interrupted', { within: 1000, what: 'the runner interrupted' });
  await sleep(OUTAGE_MS / 2);
  expect(runner.status).toBe('interrupted');
  expect(runner.failed()).toBeNull();

  // Back within a few seconds of the end (the pause between retries is at most 5 s), with every event applied.
  await runner.waitFor(last, OUTAGE_MS + 8000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(OUTAGE_MS - 100);
  await eventually(() => runner.status === 'running', { within: 6000, what: 'the runner running again' });
  const keys = await stores.documents.find(apiKeysProjection.collection.name, {});
  expect(keys.map((k) => Number(k.id)).sort((a, b) => a - b)).toEqual(Array.from({ length: MEMBERS }, (_, i) => i + 1));
}

describe('the projection runner through a store outage (fault injection on the embedded stores)', () => {
  it('survives a 10-second document store outage and catches up, not ready meanwhile', () =>
    survives(faulty.documents));

  it('survives a 10-second event store outage and catches up, not ready meanwhile', () => survives(faulty.events));

  it('gives up after PROJECTION_GIVE_UP_MS, so that the process exits for its supervisor to restart it', async () => {
    const gaveUp = jest.fn();
    await startRunner({ giveUpMs: 1500, onGiveUp: gaveUp });
    faulty.documents.outage('fail', 60_000);
    await claim(1);
    await eventually(() => gaveUp.mock.calls.length > 0, { what: 'the runner giving up' });
    expect(runner.status).toBe('failed');
    expect(String(gaveUp.mock.calls[0]![0])).toMatch(/giving up/);
    await expect(runner.waitFor(await stores.events.headPosition(), 100)).rejects.toThrow(/giving up/);
  });
});
