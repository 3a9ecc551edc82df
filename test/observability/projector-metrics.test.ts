import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/service-process';
import { parseExposition, valueOf } from '../support/metrics';

const ROOT = resolve(__dirname, '../..');

describe('`platform project`', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-projector-metrics-'));
  let projector: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    projector = spawn(
      process.execPath,
      ['-r', join(ROOT, 'test/support/load-ts.js'), '-e', "require('./src/project').project(process.env)"],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'info', METRICS_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((done, fail) => {
      let seen = '';
      projector.stdout!.on('data', (chunk) => {
        seen += String(chunk);
        if (seen.includes('projector running')) done();
      });
      projector.once('exit', (code) => fail(new Error(`the projector exited with ${code}`)));
    });
  });
  afterAll(() => {
    projector.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves its own metrics on its METRICS_PORT: where each projection stands, and the process', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const samples = parseExposition(await res.text());
    const lags = samples.filter((s) => s.name === 'platform_projection_lag_seconds');
    expect(lags.length).toBeGreaterThan(3);
    expect(lags.every((s) => s.value === 0)).toBe(true);
    expect(valueOf(samples, 'platform_projection_dead_letters')).toBe(0);
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // The projector answers no API request: no key ring of its own.
    expect(valueOf(samples, 'platform_key_ring_staleness_seconds')).toBeUndefined();
  });
});
