/**
 * The compiled service (dist/main.js, with the console built into web/dist) in a child process on a
 * scratch data directory and a free port: the one global setup starts for every story (./service.ts),
 * and a service of a story's own beside it, for a story that needs settings the others must not get:
 * a passkey's relying party on `localhost` (browsers take no IP address for one), or single sign-on
 * through a test provider.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilHealthy } from '../support/service-process';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export interface CompiledService {
  /** Where the browser goes: `http://<host>:<port>`, PUBLIC_URL too. */
  base: string;
  /** Its DATA_DIR, for the administration CLI. */
  dataDir: string;
  /** Stops the service and removes its data directory. */
  stop(): Promise<void>;
}

/** `port`: one the story chose first, when another server must know the service's address before it starts. */
export async function startCompiledService(
  host: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<CompiledService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  port ??= await freePort();
  const base = `http://${host}:${port}`;
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      METRICS_PORT: 'off',
      PUBLIC_URL: base,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await untilHealthy(`http://127.0.0.1:${port}`, child);
  return {
    base,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
