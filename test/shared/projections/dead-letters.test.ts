import { setTimeout as sleep } from 'node:timers/promises';
import { CredentialDocument } from '../../../src/credential/views';
import pino from 'pino';
import { realisticLog } from '../../../bench/realistic-log';
import { PROJECTIONS } from '../../../src/compose';
import { CredentialEvent } from '../../../src/credential/events';
import { credentialsProjection } from '../../../src/credential/projections/credentials';
import { DeadLetter, DEAD_LETTERS, ProjectionHalted } from '../../../src/shared/projections/dead-letters';
import { Projection } from '../../../src/shared/projections/projection';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { checkVersions } from '../../../src/shared/projections/versions';
import { EventStore, NewEvent } from '../../../src/stores/ports';
import { logInAdmin, registerMember, startPlatform } from '../../support/platform';
import { appendAll, folded, Scratch, scratchStores, snapshot } from './lifecycle-support';

const silent = pino({ level: 'silent' });
const credentials = credentialsProjection as unknown as Projection;
const others = PROJECTIONS.filter((p) => p !== credentials);

/**
 * Real events the credentials projection cannot apply, appended straight to the event store as a
 * faulty writer or a hand-made migration would: an approval of a credential nobody applied for
 * (valid by its schema), or one whose member id is not a number (invalid).
 */
const POISON_MEMBER = 424242;
function appendPoison(events: EventStore, member_id: number | string = POISON_MEMBER) {
  const approval: NewEvent = {
    type: 'CredentialApproved',
    data: { member_id },
    metadata: {
      actor: { kind: 'admin', id: 1 },
      request_id: 'poison',
      time: '2025-06-01T00:00:00.000Z',
      schema_version: 1,
    },
  };
  return events.append(`credential-${member_id}`, [approval], 'no_stream');
}

/** The next version of the credentials projection, fixed: an approval without an application changes nothing. */
const fixedCredentials: Projection<CredentialDocument, CredentialEvent> = {
  ...credentialsProjection,
  version: credentialsProjection.version + 1,
  evolve: (doc, event) =>
    !doc && event.type === 'CredentialApproved' ? null : credentialsProjection.evolve(doc, event),
};

async function deadLetters(scratch: Scratch): Promise<DeadLetter[]> {
  return (await scratch.stores.documents.find<DeadLetter>(DEAD_LETTERS.name, {})).map((d) => d.doc);
}

describe('an event a projection cannot apply', () => {
  let scratch: Scratch;
  beforeEach(() => {
    scratch = scratchStores('dead-letters-');
  });
  afterEach(() => scratch.close());

  it('halts that projection at the event with a dead letter, while the others go on; readers past it are refused', async () => {
    const { events, documents } = scratch.stores;
    // Credentials are applied for from the 4000th event on: the poison lands among them.
    const appends = [...realisticLog(7000)];
    await appendAll(events, appends.slice(0, 4500));
    const beforePoison = await events.headPosition();
    const poison = await appendPoison(events, 'seven');
    await appendAll(events, appends.slice(4500));
    const runner = new ProjectionRunner(events, documents, PROJECTIONS, silent);
    await runner.start();

    const head = await events.headPosition();
    await expect(runner.waitFor(head, 5000)).rejects.toBeInstanceOf(ProjectionHalted);
    // The others go on to the head; only a reader of the halted one's positions is refused.
    while (runner.position() < head) await sleep(10);
    await expect(runner.waitFor(head, 5000)).rejects.toThrow(
      /credentials cannot apply CredentialApproved .*invalid: data.member_id/,
    );
    expect(runner.status).toBe('failed');
    // Everything before the poison event can still be waited for...
    await expect(runner.waitFor(beforePoison, 5000)).resolves.toBeUndefined();
    // ...and every other read model, past it too: one halted projection holds up only its own readers.
    await expect(runner.waitFor(head, 5000, 'members')).resolves.toBeUndefined();
    await expect(runner.waitFor(head, 5000, 'credentials')).rejects.toBeInstanceOf(ProjectionHalted);

    expect(await deadLetters(scratch)).toEqual([
      {
        projection: 'credentials',
        position: poison.position,
        event_type: 'CredentialApproved',
        stream: 'credential-seven',
        revision: 0,
        error: expect.stringMatching(/is invalid: data.member_id/),
        time: expect.any(String),
        resolved_at: null,
      },
    ]);
    await runner.stop();
    // Its checkpoint did not pass the poison event; the other projections reached the head.
    expect(await documents.checkpoint('credentials')).toBe(beforePoison);
    expect(await documents.checkpoint('members')).toBe(head);
    expect(await snapshot(documents, others)).toEqual(await folded(events, others));
  });

  it('is tried again at the next start, and a fixed projection version gets past it and resolves the dead letter', async () => {
    const { events, documents } = scratch.stores;
    await appendAll(events, realisticLog(500));
    await appendPoison(events);

    for (let start = 0; start < 2; start++) {
      const runner = new ProjectionRunner(events, documents, PROJECTIONS, silent);
      await runner.start();
      await expect(runner.waitFor(await events.headPosition(), 5000)).rejects.toBeInstanceOf(ProjectionHalted);
      await runner.stop();
    }
    // The same event, met twice: still one dead letter.
    expect(await deadLetters(scratch)).toHaveLength(1);

    const projections = [...others, fixedCredentials];
    const fixed = new ProjectionRunner(events, documents, projections, silent);
    await fixed.start();
    await fixed.waitFor(await events.headPosition(), 5000);
    expect(fixed.status).toBe('running');
    expect(await deadLetters(scratch)).toEqual([
      expect.objectContaining({ projection: 'credentials', resolved_at: expect.any(String) }),
    ]);
    expect(await snapshot(documents, projections)).toEqual(await folded(events, projections));
    await fixed.stop();
  });
});

describe('a rebuild that meets an event it cannot apply', () => {
  let scratch: Scratch;
  beforeEach(() => {
    scratch = scratchStores('dead-letters-rebuild-');
  });
  afterEach(() => scratch.close());

  it('at start, leaves the live read model as it was, outdated, with a dead letter; the service still starts', async () => {
    const { events, documents } = scratch.stores;
    await appendAll(events, realisticLog(4500));
    await appendPoison(events);
    const tolerant = new ProjectionRunner(events, documents, [...others, fixedCredentials], silent);
    await tolerant.start();
    await tolerant.waitFor(await events.headPosition(), 5000);
    await tolerant.stop();
    const live = await snapshot(documents, [credentials]);

    // A later version that cannot apply the event after all.
    const strict = { ...credentials, version: fixedCredentials.version + 1 };
    const runner = new ProjectionRunner(events, documents, [...others, strict], silent);
    await runner.start();
    expect(await snapshot(documents, [credentials])).toEqual(live);
    expect(await checkVersions(documents, [strict])).toEqual({ outdated: [strict], unrecorded: [] });
    expect(await deadLetters(scratch)).toEqual([
      expect.objectContaining({ projection: 'credentials', event_type: 'CredentialApproved', resolved_at: null }),
    ]);
    await runner.stop();
  });
});

describe('/health', () => {
  it('reports an unresolved dead letter and answers 503 degraded', async () => {
    const t = await startPlatform();
    try {
      await appendPoison(t.platform.stores.events);
      // The projections go on behind it: a registration still lands in the members read model.
      await registerMember(t.client());
      const admin = t.client();
      await logInAdmin(admin);
      let res = await admin.get('/api/v1/health');
      // The runner meets the poison event in its own time.
      for (let tries = 0; res.status === 200 && tries < 100; tries++) res = await admin.get('/api/v1/health');
      expect(res.status).toBe(503);
      expect(res.body.data).toMatchObject({
        error: 'unhealthy',
        status: 'degraded',
        projections: { status: 'failed' },
        dead_letters: {
          count: 1,
          latest: {
            projection: 'credentials',
            event_type: 'CredentialApproved',
            stream: `credential-${POISON_MEMBER}`,
            resolved_at: null,
          },
        },
      });
      expect(res.body.data.dead_letters.latest.error).toMatch(/who never applied/);
    } finally {
      await t.close();
    }
  });

  it('reports no dead letter when there is none', async () => {
    const t = await startPlatform();
    try {
      const admin = t.client();
      await logInAdmin(admin);
      const res = await admin.get('/api/v1/health').expect(200);
      expect(res.body.data.dead_letters).toEqual({ count: 0, latest: null });
    } finally {
      await t.close();
    }
  });
});
