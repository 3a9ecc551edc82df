import pino from 'pino';
import { realisticLog } from '../../../bench/realistic-log';
import { credentialsProjection } from '../../../src/credential/projections/credentials';
import { MemberEvent } from '../../../src/member/decider';
import { MemberDocument, membersProjection } from '../../../src/member/projection';
import { Projection } from '../../../src/shared/projections/projection';
import { ProjectionRunner, RunnerOptions } from '../../../src/shared/projections/runner';
import { checkVersions, PROJECTION_VERSIONS, VersionDocument } from '../../../src/shared/projections/versions';
import { appendAll, folded, Scratch, scratchStores, snapshot } from './lifecycle-support';

const silent = pino({ level: 'silent' });
const members = membersProjection as unknown as Projection;
const credentials = credentialsProjection as unknown as Projection;
/** The next version of the members read model: its documents gain a field. */
const membersV2: Projection<MemberDocument & { shouted: string }, MemberEvent> = {
  ...membersProjection,
  version: 2,
  evolve: (doc, event) => {
    const next = membersProjection.evolve(doc, event);
    return next && { ...next, shouted: next.username.toUpperCase() };
  },
};

let scratch: Scratch;
beforeEach(async () => {
  scratch = scratchStores('versions-');
  await appendAll(scratch.stores.events, realisticLog(1500));
});
afterEach(() => scratch.close());

async function run(projections: Projection[], options?: RunnerOptions): Promise<void> {
  const { events, documents } = scratch.stores;
  const runner = new ProjectionRunner(events, documents, projections, silent, options);
  await runner.start();
  await runner.waitFor(await events.headPosition(), 5000);
  await runner.stop();
}

async function storedVersions(): Promise<Record<string, number>> {
  const docs = await scratch.stores.documents.find<VersionDocument>(PROJECTION_VERSIONS.name, {});
  return Object.fromEntries(docs.map(({ doc }) => [doc.projection, doc.version]));
}

describe('projection versions', () => {
  it('are recorded on a first start, with nothing to rebuild', async () => {
    await run([members, credentials]);
    expect(await storedVersions()).toEqual({ members: 1, credentials: credentials.version });
    expect(await checkVersions(scratch.stores.documents, [members, credentials])).toEqual({
      outdated: [],
      unrecorded: [],
    });
  });

  it('make a start rebuild the read model of a projection whose version changed, and record the new version', async () => {
    await run([members, credentials]);
    const credentialsBefore = await snapshot(scratch.stores.documents, [credentials]);

    await run([membersV2, credentials]);

    const { documents, events } = scratch.stores;
    expect(await snapshot(documents, [membersV2])).toEqual(await folded(events, [membersV2]));
    expect(
      Object.values((await snapshot(documents, [membersV2])).members!).every(
        (d) => 'shouted' in (d as { doc: object }).doc,
      ),
    ).toBe(true);
    expect(await snapshot(documents, [credentials])).toEqual(credentialsBefore);
    expect(await storedVersions()).toEqual({ members: 2, credentials: credentials.version });
  });

  it('with AUTO_UPGRADE=false, leave an outdated read model as it is and report it', async () => {
    await run([members]);
    const before = await snapshot(scratch.stores.documents, [members]);

    await run([membersV2], { autoUpgrade: false });

    expect(await snapshot(scratch.stores.documents, [members])).toEqual(before);
    expect(await storedVersions()).toEqual({ members: 1 });
    expect(await checkVersions(scratch.stores.documents, [membersV2])).toEqual({
      outdated: [membersV2],
      unrecorded: [],
    });
  });

  it('count a read model built before versions were recorded as outdated, and rebuild it', async () => {
    await run([members]);
    await scratch.stores.documents.dropCollection(PROJECTION_VERSIONS.name);
    expect(await checkVersions(scratch.stores.documents, [members])).toEqual({ outdated: [members], unrecorded: [] });

    await run([members]);
    expect(await storedVersions()).toEqual({ members: 1 });
    expect(await snapshot(scratch.stores.documents, [members])).toEqual(await folded(scratch.stores.events, [members]));
  });
});
