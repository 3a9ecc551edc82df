import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { credentialStream } from '../../../src/credential/decider';
import { CredentialEvent } from '../../../src/credential/events';
import { ApiKeyDocument, apiKeysProjection } from '../../../src/credential/projections/api-keys';
import { Replica, ReplicaUnavailable } from '../../../src/shared/projections/replica';
import { Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { faultyEventStore, FaultSwitch } from '../../support/faults';
import { APIID, applied, approved, claimed, revoked } from '../../credential/fixtures';

const BOUND_MS = 400;

let dir: string;
let stores: Stores;
let faults: FaultSwitch;
let replica: Replica<ApiKeyDocument>;

/** What another API instance, still in touch with the event store, appends. */
function appendElsewhere(expected: number | 'no_stream', ...events: CredentialEvent[]) {
  const metadata = {
    actor: { kind: 'admin' as const, id: 1 },
    request_id: 'elsewhere',
    time: new Date().toISOString(),
  };
  return stores.events.append(
    credentialStream(1),
    events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata })),
    expected,
  );
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'staleness-'));
  stores = openSqliteStores(dir);
  await appendElsewhere('no_stream', applied(), approved(), claimed(APIID, 'k1'));
  faults = new FaultSwitch('event store');
  // This instance's replica reaches the event store only through the switch: a partition.
  replica = new Replica(
    faultyEventStore(stores.events, faults),
    stores.documents,
    apiKeysProjection,
    'apiid',
    pino({ level: 'silent' }),
    BOUND_MS,
  );
  await replica.start();
});
afterEach(async () => {
  faults.heal();
  await replica.stop();
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a key ring that lost the event store', () => {
  it('never accepts a key revoked elsewhere once the staleness bound has passed: it refuses to answer until it is back', async () => {
    expect(replica.lookup(APIID)?.revoked).toBe(false);
    faults.outage('fail', 60_000);
    await appendElsewhere(2, revoked('leaked'));

    // Within the bound it still answers from memory: a brief reconnect does not refuse every partner.
    expect(replica.status()).toBe('following');
    await sleep(BOUND_MS + 100);
    // Past it, a lookup is refused rather than answered with what may be a revoked key.
    const deadline = Date.now() + 1000;
    while (Date.now() < deadline) {
      expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
      await sleep(50);
    }
    expect(replica.status()).toBe('resubscribing');

    faults.heal();
    await replica.waitFor(await stores.events.headPosition(), 2000);
    expect(replica.lookup(APIID)?.revoked).toBe(true);
    expect(replica.status()).toBe('following');
  });

  it('a stalled store counts the same as a refused connection', async () => {
    faults.outage('stall', 60_000);
    await sleep(BOUND_MS + 100);
    expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
  });

  it('a quiet log is not a lost one: a confirmed subscription with nothing to deliver keeps vouching', async () => {
    await sleep(BOUND_MS * 2);
    expect(replica.lookup(APIID)?.revoked).toBe(false);
  });
});
