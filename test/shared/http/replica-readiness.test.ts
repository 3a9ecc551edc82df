/**
 * Readiness per replica, with the service in real processes: the README's topology of an inline
 * API with a second API started with PROJECTIONS=off beside it, on one data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { ADMIN_PASSWORD, logInAdmin, registerMember } from '../../support/platform';
import { freePort, untilHealthy } from '../../support/service-process';

jest.setTimeout(30_000);

const ROOT = resolve(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'platform-replicas-'));
const started: ChildProcess[] = [];

async function api(projections: 'inline' | 'off'): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/load-ts.js'), join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      PROJECTIONS: projections,
      LOG_LEVEL: 'error',
      READ_WAIT_MS: '3000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(child);
  const base = `http://127.0.0.1:${port}`;
  await untilHealthy(base, child);
  return { child, base };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

afterAll(async () => {
  for (const child of started) await stop(child);
  rmSync(dir, { recursive: true, force: true });
});

describe('an API with PROJECTIONS=off beside an inline API on the same data directory', () => {
  let inline: { child: ChildProcess; base: string };
  let off: { child: ChildProcess; base: string };

  it("becomes ready, reads its own writes through the inline API's projections and reports them running", async () => {
    inline = await api('inline');
    off = await api('off');
    await request(off.base).get('/api/v1/readyz').expect(200);

    const member = await registerMember(request.agent(off.base));
    expect(member.id).toBeGreaterThan(0);
    const admin = request.agent(off.base);
    await logInAdmin(admin);
    const health = await admin.get('/api/v1/health').expect(200);
    expect(health.body.data.projections.status).toBe('running');
  });

  it('stays ready when the inline API stops, while /health reports the projections stopped and reads that need them answer 503', async () => {
    await stop(inline.child);
    await request(off.base).get('/api/v1/readyz').expect(200);
    const admin = request.agent(off.base);
    await logInAdmin(admin);
    const health = await admin.get('/api/v1/health').expect(503);
    expect(health.body.data.projections.status).toBe('stopped');

    const member = request.agent(off.base);
    await registerMember(member);
    const dashboard = await member.get('/api/v1/developer/dashboard').expect(503);
    expect(dashboard.body.data.error).toBe('read_model_lagging');
    expect(dashboard.headers['retry-after']).toBe('1');
  });
});
