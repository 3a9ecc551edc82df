import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * A stop that hangs (a store that never answers its close, a loop that missed its abort) must not
 * keep a process that was told to stop alive until the orchestrator kills it: it exits 1 after
 * the limit, saying so in the log. Real processes, real signals.
 */
const ROOT = resolve(__dirname, '../../..');

async function stopped(env: Record<string, string>): Promise<{ code: number | null; ms: number; messages: string[] }> {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'test/support/load-ts.js'), join(__dirname, 'stop-child.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const messages: string[] = [];
  let pending = '';
  let signalled = 0;
  child.stdout!.on('data', (chunk) => {
    pending += String(chunk);
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      const { msg } = JSON.parse(line) as { msg: string };
      messages.push(msg);
      if (msg === 'ready') {
        signalled = Date.now();
        child.kill('SIGTERM');
      }
    }
  });
  const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)));
  return { code, ms: Date.now() - signalled, messages };
}

describe('stopping on SIGTERM', () => {
  it('exits 1 after the limit when stopping hangs, and says why', async () => {
    const result = await stopped({ STOP: 'hang', LIMIT_MS: '300' });
    expect(result.code).toBe(1);
    expect(result.messages).toEqual(['ready', 'stopping', 'stopping did not end in time; exiting without it']);
    expect(result.ms).toBeGreaterThanOrEqual(300);
  });

  it('exits 0 at once when stopping ends, the limit unused', async () => {
    const result = await stopped({ STOP: 'end', LIMIT_MS: '60000' });
    expect(result.code).toBe(0);
    expect(result.messages).toEqual(['ready', 'stopping', 'stopped']);
  });
});
