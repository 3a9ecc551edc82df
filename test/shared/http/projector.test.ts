import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { logIn, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

const ROOT = resolve(__dirname, '../../..');

/** `platform project` in its own process, on the same data directory as the API instances. */
function startProjector(dataDir: string, stderr: 'inherit' | 'ignore' = 'inherit'): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', join(ROOT, 'test/support/load-ts.js'), '-e', "require('./src/project').project(process.env)"],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', stderr] },
  );
}

function untilLogged(child: ChildProcess, message: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk) => {
      seen += String(chunk);
      if (seen.includes(message)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`projector exited with ${code} before logging "${message}"`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('API instances with PROJECTIONS=off and one projector process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-projector-'));
  let projector: ChildProcess;
  let a: TestPlatform;
  let b: TestPlatform;

  beforeAll(async () => {
    projector = startProjector(dir);
    await untilLogged(projector, 'projector running');
    a = await startPlatform({ PROJECTIONS: 'off', READ_WAIT_MS: 3000 }, dir);
    b = await startPlatform({ PROJECTIONS: 'off', READ_WAIT_MS: 3000 }, dir);
  });
  afterAll(async () => {
    projector.kill('SIGKILL');
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read their own writes by waiting on the projector checkpoint', async () => {
    const client = a.client();
    const member = await registerMember(client);
    const dashboard = await client.get('/api/v1/developer/dashboard').expect(200);
    expect(dashboard.body.data.member).toMatchObject({ id: member.id, username: member.username });
  });

  it('share sessions and members: a member registered on one instance logs in on the other', async () => {
    const member = await registerMember(a.client());
    const client = b.client();
    await logIn(client, member);
    await client.get('/api/v1/developer/dashboard').expect(200);
  });

  it('report the projector running in /health, from its heartbeat', async () => {
    const admin = a.client();
    await logInAdmin(admin);
    const res = await admin.get('/api/v1/health').expect(200);
    expect(res.body.data.projections.status).toBe('running');
    expect(res.body.data.projections.lag_ms).toBeGreaterThanOrEqual(0);
    // Beating every 5 s: never older than three beats while it runs.
    expect(res.body.data.projections.heartbeat_age_ms).toBeLessThan(15_000);
    // The projector lease, and who holds it: that process, by its pid.
    expect(res.body.data.projections.lease).toEqual({
      holder: expect.stringContaining(`:${projector.pid}:`),
      token: 1,
      expires_at: expect.any(String),
    });
    expect(Date.parse(res.body.data.projections.lease.expires_at)).toBeGreaterThan(Date.now());
    await a.client().get('/api/v1/readyz').expect(200);
  });

  it('keep every other process from running the projections beside the projector: an API is refused, saying what to do instead; a second projector waits for the lease', async () => {
    await expect(startPlatform({ PROJECTIONS: 'inline' }, dir)).rejects.toThrow(
      /another process already runs the projections on .* start API processes beside it with PROJECTIONS=off/,
    );
    // A standby: it takes over when the projector dies (test/shared/projections/projector-failover.test.ts).
    const second = startProjector(dir, 'ignore');
    await untilLogged(second, 'waiting to take over');
    const exited = exitCode(second);
    second.kill('SIGKILL');
    await exited;
    // Neither changed anything: the API instances still read their writes.
    const member = await registerMember(a.client());
    expect(member.id).toBeGreaterThan(0);
  });

  it('the projector stops on SIGTERM with exit code 0, and reads then answer 503 instead of stale data', async () => {
    const exited = exitCode(projector);
    projector.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Each API replica stays ready (its own stores answer, its key ring follows): a projector
    // blip must not empty the load balancer. Its last heartbeat says it stopped, which /health reports.
    await a.client().get('/api/v1/readyz').expect(200);
    const admin = a.client();
    await logInAdmin(admin);
    expect((await admin.get('/api/v1/health').expect(503)).body.data.projections.status).toBe('stopped');

    const lagging = await startPlatform({ PROJECTIONS: 'off', READ_WAIT_MS: 300 }, dir);
    try {
      const client = lagging.client();
      await registerMember(client);
      const res = await client.get('/api/v1/developer/dashboard').expect(503);
      expect(res.body.data.error).toBe('read_model_lagging');
      expect(res.headers['retry-after']).toBe('1');

      // A write whose answer needs a read model: recorded, and said so, not "retry".
      const csrf = async () => (await client.get('/api/v1/developer/session')).body.data.csrf_token as string;
      const applied = await client
        .post('/api/v1/developer/credential')
        .set('X-CSRF-Token', await csrf())
        .send({})
        .expect(503);
      expect(applied.body.data.error).toBe('recorded_not_visible_yet');
      expect(applied.body.message).toMatch(/recorded \(do not send it again\)/);
      expect((await lagging.allEvents()).map((e) => e.type)).toContain('CredentialApplied');
      const again = await client
        .post('/api/v1/developer/credential')
        .set('X-CSRF-Token', await csrf())
        .send({})
        .expect(422);
      expect(again.body.data.error).toBe('credential_already_applied');

      // The detailed report says how long the oldest event not yet applied has waited.
      const admin = lagging.client();
      await logInAdmin(admin);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const health = await admin.get('/api/v1/health').expect(503);
      expect(health.body.data.projections).toMatchObject({ status: 'stopped', lag_ms: expect.any(Number) });
      expect(health.body.data.projections.lag_ms).toBeGreaterThanOrEqual(200);
    } finally {
      await lagging.close();
    }
  });
});
