import pino from 'pino';
import { PROJECTIONS } from '../../../src/compose';
import { CommandContext } from '../../../src/shared/commands/context';
import { claimCredential, decideCredential, rotateKey } from '../../../src/credential/commands';
import { handle } from '../../../src/shared/commands/handle';
import { credentialStream } from '../../../src/credential/decider';
import { Decider, DomainEvent } from '../../../src/shared/domain/decider';
import { InvalidEvent } from '../../../src/shared/domain/events';
import { Projection } from '../../../src/shared/projections/projection';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { Stores } from '../../../src/stores/ports';
import { Scratch, scratchStores } from './lifecycle-support';

const member_id = 7;
const stream = credentialStream(member_id);
const ROTATED_KEY = 'f'.repeat(64);
const ctx: CommandContext = {
  actor: { kind: 'admin', id: 1 },
  requestId: 'test',
  now: new Date('2025-03-01T10:00:00.000Z'),
};

let scratch: Scratch;
let stores: Stores;
beforeEach(() => {
  scratch = scratchStores('upcasting-');
  stores = scratch.stores;
});
afterEach(() => scratch.close());

/** An active credential, then a rotation appended straight to the store in its version 1 shape. */
async function activeThenRotatedInVersion1(): Promise<{ apiid: string; position: string }> {
  await decideCredential(
    stores.events,
    { type: 'ApplyCredential', data: { member_id, username: 'alice', now: ctx.now.toISOString() } },
    ctx,
  );
  await decideCredential(
    stores.events,
    { type: 'ApproveCredential', data: { member_id, expires_at: null, now: new Date().toISOString() } },
    ctx,
  );
  const { apiid } = await claimCredential(stores.events, member_id, ctx);
  const [claimed] = await stores.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
  const v1 = { member_id, apiid, key_digest: ROTATED_KEY, previous_key_digest: String(claimed!.data.key_digest) };
  const metadata = {
    actor: { kind: 'member' as const, id: member_id },
    request_id: 'old',
    time: '2025-03-01T10:05:00.000Z',
  };
  const { position } = await stores.events.append(
    stream,
    [{ type: 'KeyRotated', data: v1, metadata }],
    claimed!.revision,
  );
  return { apiid, position };
}

/** Keeps, per stream, the data of the last KeyRotated it was handed. */
const rotations: Projection<Record<string, unknown>> = {
  name: 'rotations',
  version: 1,
  collection: { name: 'rotations', indexes: [] },
  handles: ['KeyRotated'],
  documentIds: (event) => [event.stream],
  evolve: (_doc, event) => event.data as Record<string, unknown>,
};

describe('an event stored in an older shape', () => {
  it('reaches projections in the current shape', async () => {
    const { apiid, position } = await activeThenRotatedInVersion1();

    const runner = new ProjectionRunner(
      stores.events,
      stores.documents,
      [...PROJECTIONS, rotations as unknown as Projection],
      pino({ level: 'silent' }),
    );
    await runner.start();
    await runner.waitFor(position, 2000);
    await runner.stop();

    expect((await stores.documents.get('rotations', stream))?.doc).toMatchObject({
      key_digest: ROTATED_KEY,
      previous_key_valid_until: null,
    });
    // Version 1 had no grace period: only the new key is accepted.
    expect((await stores.documents.get('api_keys', String(member_id)))?.doc).toMatchObject({
      apiid,
      keys: [{ digest: ROTATED_KEY, valid_until: null }],
    });
  });

  it('reaches a command handler in the current shape', async () => {
    await activeThenRotatedInVersion1();
    const folded: DomainEvent[] = [];
    const observer: Decider<null, DomainEvent, null> = {
      initialState: null,
      evolve(state, event) {
        folded.push(event);
        return state;
      },
      decide: () => [],
    };

    await handle(stores.events, stream, observer, null, ctx);

    expect(folded.at(-1)?.data).toMatchObject({ key_digest: ROTATED_KEY, previous_key_valid_until: null });
  });

  it('is folded by the real decider, and the next rotation is appended in the current version', async () => {
    await activeThenRotatedInVersion1();

    await rotateKey(stores.events, member_id, 60, ctx);

    const [latest] = await stores.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    expect(latest).toMatchObject({
      type: 'KeyRotated',
      data: {
        previous_key_digest: ROTATED_KEY,
        previous_key_valid_until: '2025-03-01T10:01:00.000Z',
        earlier_keys: [],
      },
      metadata: { schema_version: 3 },
    });
  });
});

describe('an invalid stored event', () => {
  it('stops a command on its stream with InvalidEvent, and nothing is appended', async () => {
    await decideCredential(
      stores.events,
      { type: 'ApplyCredential', data: { member_id, username: 'alice', now: ctx.now.toISOString() } },
      ctx,
    );
    const metadata = { actor: { kind: 'admin' as const, id: 1 }, request_id: 'bad', time: '2025-03-01T10:01:00.000Z' };
    await stores.events.append(stream, [{ type: 'CredentialApproved', data: { member: member_id }, metadata }], 0);
    const head = await stores.events.headPosition();

    const approve = decideCredential(
      stores.events,
      { type: 'ApproveCredential', data: { member_id, expires_at: null, now: new Date().toISOString() } },
      ctx,
    );

    await expect(approve).rejects.toBeInstanceOf(InvalidEvent);
    await expect(approve).rejects.toThrow(/CredentialApproved #1 of credential-7 .* data\.member_id/);
    expect(await stores.events.headPosition()).toBe(head);
  });
});

describe('appending', () => {
  it('records the schema version of every event', async () => {
    await decideCredential(
      stores.events,
      { type: 'ApplyCredential', data: { member_id, username: 'alice', now: ctx.now.toISOString() } },
      ctx,
    );
    const [applied] = await stores.events.readStream(stream);
    expect(applied?.metadata.schema_version).toBe(2); // one upcaster: version 1 said nothing of who asks
  });
});
