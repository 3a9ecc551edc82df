import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { credentialStream } from '../../../src/credential/decider';
import { CredentialEvent } from '../../../src/credential/events';
import { ApiKeyDocument, apiKeysProjection } from '../../../src/credential/projections/api-keys';
import { ProjectionLag } from '../../../src/shared/projections/lag';
import { Projection } from '../../../src/shared/projections/projection';
import { Replica, ReplicaUnavailable } from '../../../src/shared/projections/replica';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { Position, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import {
  APIID,
  APIID2,
  applied,
  approved,
  claimed,
  credentialEvents,
  requested,
  rotated,
  scopeApproved,
} from '../../credential/fixtures';

const silent = pino({ level: 'silent' });
const WAIT_MS = 2000;

let dir: string;
let stores: Stores;
let revisions: Map<number, number>;
let started: Array<{ stop(): Promise<void> }>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replica-'));
  stores = openSqliteStores(dir);
  revisions = new Map();
  started = [];
});
afterEach(async () => {
  for (const follower of started) await follower.stop();
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Appends to the member's credential stream with the expected revision, as the command handler does. */
async function append(member_id: number, ...events: CredentialEvent[]): Promise<Position> {
  const expected = revisions.get(member_id) ?? 'no_stream';
  const result = await stores.events.append(
    credentialStream(member_id),
    events.map((event) => ({
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: { actor: { kind: 'admin', id: 1 }, request_id: 'test', time: new Date().toISOString() },
    })),
    expected,
  );
  revisions.set(member_id, result.nextExpectedRevision);
  return result.position;
}

const revoked = (member_id: number) => credentialEvents(member_id).revoked('leaked');

/** A member whose credential is active: applied, approved and claimed in one go. */
const activate = (member_id: number, apiid: string, key_digest: string) =>
  append(member_id, applied(member_id), approved(member_id), claimed(apiid, key_digest, member_id));

async function startReplica(): Promise<Replica<ApiKeyDocument>> {
  const replica = new Replica(stores.events, stores.documents, apiKeysProjection, 'apiid', silent);
  await replica.start();
  started.push(replica);
  return replica;
}

/** A projection runner that projects whatever `act` appends, then stops: the stored state a replica starts from. */
async function projectThenStop(act: () => Promise<Position>): Promise<Position> {
  const runner = new ProjectionRunner(
    stores.events,
    stores.documents,
    [apiKeysProjection as unknown as Projection],
    silent,
  );
  await runner.start();
  const position = await act();
  await runner.waitFor(position, WAIT_MS);
  await runner.stop();
  return position;
}

describe('Replica', () => {
  it('primes from the stored documents and checkpoint, and follows the log only from there', async () => {
    const position = await projectThenStop(() => activate(1, APIID, 'k1'));
    expect(await stores.documents.checkpoint('api_keys')).toBe(position);

    const subscribe = jest.spyOn(stores.events, 'subscribeAll');
    const replica = await startReplica();

    expect(subscribe).toHaveBeenCalledWith(position, expect.anything(), expect.anything());
    expect(replica.lookup(APIID)).toEqual({
      member_id: 1,
      apiid: APIID,
      revoked: false,
      expires_at: null,
      keys: [{ digest: 'k1', valid_until: null }],
      scopes: [],
    });
  });

  it('follows events appended after it started', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    const replica = await startReplica();

    await append(1, requested('addons.read'));
    const position = await append(1, scopeApproved('addons.read'));
    const second = await activate(2, APIID2, 'k2');
    await replica.waitFor(position > second ? position : second, WAIT_MS);

    expect(replica.lookup(APIID)).toMatchObject({ member_id: 1, scopes: ['addons.read'] });
    expect(replica.lookup(APIID2)).toMatchObject({ member_id: 2, keys: [{ digest: 'k2', valid_until: null }] });
  });

  it('looks documents up by the key field, and by nothing else', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    const replica = await startReplica();

    expect(replica.lookup(APIID)?.member_id).toBe(1);
    expect(replica.lookup('ak_cccccccccccccccccccc')).toBeNull();
    // The document id is the member id; it is not a key.
    expect(replica.lookup('1')).toBeNull();
  });

  it('forgets the old API id once a new application and claim issue another', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    const replica = await startReplica();

    await append(1, revoked(1), applied(1));
    const position = await append(1, approved(1), claimed(APIID2, 'k2', 1));
    await replica.waitFor(position, WAIT_MS);

    expect(replica.lookup(APIID)).toBeNull();
    expect(replica.lookup(APIID2)).toMatchObject({
      member_id: 1,
      revoked: false,
      keys: [{ digest: 'k2', valid_until: null }],
    });
  });

  it('waitFor resolves once the appended event is applied', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    const replica = await startReplica();

    const position = await append(1, revoked(1));
    // What a reader sees at the moment the wait ends is what matters, not after a later tick.
    const seen = await replica.waitFor(position, WAIT_MS).then(() => replica.lookup(APIID));
    expect(seen).toMatchObject({ revoked: true });
  });

  it('waitFor resolves at once without a position, and fails with ProjectionLag when the position is not reached in time', async () => {
    const replica = await startReplica();
    await expect(replica.waitFor(null, 10)).resolves.toBeUndefined();
    await expect(replica.waitFor('99999999999999999999', 50)).rejects.toBeInstanceOf(ProjectionLag);
  });

  it('answers nothing older than the log at start: a revocation after the stored checkpoint is seen at once', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    // The projector is behind: hundreds of events and then the revocation are not in the stored read model.
    for (let i = 0; i < 300; i++)
      await stores.events.append(
        `other-${i}`,
        [
          {
            type: 'Noise',
            data: {},
            metadata: { actor: { kind: 'system', id: null }, request_id: 't', time: new Date(0).toISOString() },
          },
        ],
        'no_stream',
      );
    await append(1, revoked(1));

    const replica = await startReplica();
    expect(replica.lookup(APIID)).toMatchObject({ revoked: true });
  });

  it('an event it cannot apply refuses the lookups of its document only, and start-up and the log go on', async () => {
    await activate(1, APIID, 'k1');
    await activate(2, APIID2, 'k2');
    // A damaged event, as the store may hold it: a scope approval whose scope is not a string.
    await append(1, { type: 'ScopeApproved', data: { member_id: 1, scope: 5 } } as unknown as CredentialEvent);
    const replica = await startReplica();
    expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
    expect(replica.lookup(APIID2)).toMatchObject({ member_id: 2 });
    // Fail closed: nothing after the damaged event reopens the document, and the others are followed.
    await append(1, revoked(1));
    await replica.waitFor(await append(2, revoked(2)), WAIT_MS);
    expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
    expect(replica.lookup(APIID2)).toMatchObject({ revoked: true });
  });

  it('an event whose documents cannot be named refuses every lookup, and says halted, not resubscribing', async () => {
    await activate(1, APIID, 'k1');
    // Damaged past naming its document: no member_id to read from data.
    await append(1, { type: 'CredentialRevoked', data: null } as unknown as CredentialEvent);
    const replica = await startReplica();
    expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
    expect(replica.status()).toBe('halted');
  });

  it('refuses lookups before it follows the log, rather than answer from nothing', () => {
    const replica = new Replica(stores.events, stores.documents, apiKeysProjection, 'apiid', silent);
    expect(() => replica.lookup(APIID)).toThrow(ReplicaUnavailable);
  });

  it('a document deleted after the stored checkpoint stays deleted after a restart', async () => {
    await projectThenStop(() => activate(1, APIID, 'k1'));
    const first = await startReplica();
    // The runner is stopped: the stored document is still the claimed one.
    const deleted = await append(1, revoked(1), applied(1));
    await first.waitFor(deleted, WAIT_MS);
    expect(first.lookup(APIID)).toBeNull();
    await first.stop();

    const second = await startReplica();
    await second.waitFor(await stores.events.headPosition(), WAIT_MS);
    expect(second.lookup(APIID)).toBeNull();
  });

  it('does not apply again an event that a stored document ahead of the checkpoint already contains', async () => {
    const claim = await projectThenStop(() => activate(1, APIID, 'k1'));
    const until = '2999-01-01T00:00:00.000Z';
    await projectThenStop(() => append(1, rotated(APIID, 'k2', 'k1', until)));
    // Production stores write documents and checkpoint separately: a crash can leave the checkpoint behind.
    await stores.documents.resetCheckpoint('api_keys');
    await stores.documents.write([], { projection: 'api_keys', position: claim });

    const replica = await startReplica();
    await replica.waitFor(await stores.events.headPosition(), WAIT_MS);
    // A rotation applied twice would list the previous key twice.
    const keys = replica.lookup(APIID)?.keys ?? [];
    expect(keys).toHaveLength(2);
    expect(keys).toEqual(
      expect.arrayContaining([
        { digest: 'k2', valid_until: null },
        { digest: 'k1', valid_until: until },
      ]),
    );
  });

  it('a deletion stored ahead of the checkpoint (a crash between the two writes) is not undone on restart', async () => {
    const claim = await projectThenStop(() => activate(1, APIID, 'k1'));
    await projectThenStop(() => append(1, revoked(1), applied(1)));
    expect(await stores.documents.get('api_keys', '1')).toBeNull();
    // Production stores write documents and checkpoint separately: put the checkpoint back at the claim.
    await stores.documents.resetCheckpoint('api_keys');
    await stores.documents.write([], { projection: 'api_keys', position: claim });

    const replica = await startReplica();
    await replica.waitFor(await stores.events.headPosition(), WAIT_MS);
    expect(replica.lookup(APIID)).toBeNull();
  });
});
