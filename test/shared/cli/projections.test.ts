import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { PROJECTIONS } from '../../../src/compose';
import { PROJECTION_VERSIONS } from '../../../src/shared/projections/versions';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { expectRefused, platform } from '../../support/cli';
import { eventually } from '../../support/eventually';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

// The CLI works on the embedded store the service below runs on.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

const NAMES = PROJECTIONS.map((p) => p.name).join(', ');
const UPGRADE_SHOWS_WITHIN_MS = 10_000;

/** Read models built by a version of the service that did not record their versions: all outdated. */
async function forgetVersions(dir: string): Promise<void> {
  const stores = openSqliteStores(dir);
  try {
    await stores.documents.dropCollection(PROJECTION_VERSIONS.name);
  } finally {
    await stores.close();
  }
}

describe('platform upgrade and platform projections rebuild, with the API running', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-projections-'));
  let service: TestPlatform;
  let admin: request.Agent;

  beforeAll(async () => {
    const first = await startPlatform({}, dir);
    await registerMember(first.client());
    await first.close();
    await forgetVersions(dir);
    service = await startPlatform({ AUTO_UPGRADE: false }, dir);
    admin = service.client();
    await logInAdmin(admin);
  });
  afterAll(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('AUTO_UPGRADE=false: every administrator endpoint answers 503 upgrade_required, naming the command to run', async () => {
    const res = await admin.get('/api/v1/credentials').expect(503);
    expect(res.body).toEqual({
      code: 503,
      message: expect.stringContaining('platform upgrade'),
      data: { error: 'upgrade_required' },
    });
    // Members are not administrators: their endpoints keep answering.
    await registerMember(service.client());
  });

  it('AUTO_UPGRADE=false: readiness says an upgrade is required', async () => {
    const res = await service.client().get('/api/v1/readyz').expect(503);
    expect(res.body).toEqual({
      code: 503,
      message: expect.stringContaining('platform upgrade'),
      data: { error: 'upgrade_required' },
    });
  });

  it('platform upgrade rebuilds the outdated read models, the running API swaps them in and stops answering 503', async () => {
    const run = await platform(dir, ['upgrade']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Rebuilt ${NAMES} from \\d+ events in [\\d.]+ s \\(\\d+ events/s\\), up to position \\d+\\.$`),
    );
    expect(lines[1]).toBe(`Swapped in by the running projection runner: ${NAMES}.`);
    // Not a terminal: no progress bar, only the lines above.
    expect(lines).toHaveLength(2);

    const status = await eventually(
      async () => {
        const { status } = await admin.get('/api/v1/credentials');
        return status !== 503 && status;
      },
      { within: UPGRADE_SHOWS_WITHIN_MS, every: 100, what: 'the upgrade shown to the API' },
    );
    expect(status).toBe(200);
    await service.client().get('/api/v1/readyz').expect(200);

    expect(await platform(dir, ['upgrade'])).toEqual({
      code: 0,
      stdout: 'Every read model is up to date: nothing to upgrade.\n',
      stderr: '',
    });
  });

  it('platform projections rebuild rebuilds one read model while the API serves, and the API swaps it in', async () => {
    const client = service.client();
    const member = await registerMember(client);
    const run = await platform(dir, ['projections', 'rebuild', 'members']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^Rebuilt members from \d+ events in [\d.]+ s \(\d+ events\/s\), up to position \d+\.\nSwapped in by the running projection runner: members\.\n$/,
    );

    const dashboard = await client.get('/api/v1/developer/dashboard').expect(200);
    expect(dashboard.body.data.member).toMatchObject({ id: member.id, username: member.username });
  });

  it('refuses an unknown read model with one line', async () => {
    expectRefused(
      await platform(dir, ['projections', 'rebuild', 'nobody']),
      /no read model is called nobody; choose one of members/,
    );
  });
});

describe('platform projections rebuild, with a rebuild already waiting to be swapped in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-projections-waiting-'));

  beforeAll(async () => {
    const first = await startPlatform({}, dir);
    await registerMember(first.client());
    await first.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to build another over it, saying when it was built and what to do whether or not a runner runs', async () => {
    const offered = await platform(dir, ['projections', 'rebuild', 'members', '--wait', '0']);
    expect(offered.code).toBe(0);
    expect(offered.stdout).toMatch(/Waiting to be swapped in: members/);

    expectRefused(
      await platform(dir, ['projections', 'rebuild', 'members']),
      /the rebuild of members \(built at \d{4}-\d\d-\d\dT[\d:.]+Z\) is still waiting to be swapped in\. If the API or `platform project` runs, it swaps it in within seconds .*try again then\. If neither runs, start one, or pass --replace/,
    );
    expect((await platform(dir, ['projections', 'rebuild', 'members', '--replace', '--wait', '0'])).code).toBe(0);
  });
});
