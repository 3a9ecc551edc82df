/**
 * A service of a story's own, beside the one global setup starts (./service.ts), for a story that
 * needs settings the others must not get: a passkey's relying party on `localhost` (browsers take no
 * IP address for one), or single sign-on through a test provider.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilHealthy } from '../support/service-process';
import { ADMIN_PASSWORD } from './service';

export interface OwnService {
  /** Where the browser goes: `http://<host>:<port>`, PUBLIC_URL too. */
  base: string;
  stop(): Promise<void>;
}

/** `port`: one the story chose first, when another server must know the service's address before it starts. */
export async function startOwnService(
  host: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<OwnService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-e2e-own-'));
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
    async stop() {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
