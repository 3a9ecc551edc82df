/**
 * The service under test: the compiled service (`node dist/main.js`, as `npm start` runs it) in a
 * child process of its own, on a fresh data directory, so that the load generator and the service
 * never share an event loop. Its logs go to /dev/null: it still formats and writes a line for every
 * request, and that cost is part of what is measured.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ADMIN_PASSWORD } from '../test/support/platform';
import { freePort, untilHealthy } from '../test/support/service-process';
import { waitForExit } from './processes';

const ROOT = join(__dirname, '..');
const STOP_TIMEOUT_MS = 30_000;

export interface Service {
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  pid: number;
  /** A client with its own cookie jar, like one browser (the shape test/support/credentials.ts takes). */
  client(): request.Agent;
  stop(): Promise<void>;
}

/**
 * Settings the benchmarks depend on. The open-API rate limits (docs/rate-limits.md) are set far
 * above any rate this machine reaches, so that (a) and (b) pay for the limiters' counting but never
 * meet their refusals; so are registrations and new sessions per address, as (d) registers its members
 * from one address. The login limits stay at their defaults: (g) measures them.
 */
const BENCH_ENV = {
  ADMIN_PASSWORD,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  // No metrics listener unless a part measures it (BENCH_METRICS): the default port is fixed, and
  // bench/perf-diff.ts runs two services side by side.
  METRICS_PORT: 'off',
  OPEN_API_RATE_LIMIT: '1000000',
  OPEN_API_RATE_WINDOW_SECONDS: '1',
  // (b) sends wrong keys from one address: it pays for their count, never meets its 429.
  OPEN_API_CREDENTIAL_FAILURE_LIMIT: '1000000',
  OPEN_API_CREDENTIAL_FAILURE_WINDOW_SECONDS: '1',
  REGISTRATION_LIMIT: '100000',
  ANONYMOUS_SESSION_LIMIT: '1000000',
  // Every load client comes from 127.0.0.1: the per-address connection cap would stop the load (d, g), not measure it.
  MAX_CONNECTIONS_PER_ADDRESS: '0',
};

export interface ServiceOptions {
  /** Before the script, e.g. --cpu-prof for bench/profile.ts. */
  nodeArgs?: string[];
  /** Settings over the benchmark's own, e.g. LOG_LEVEL=silent to see what the request log costs. */
  env?: Record<string, string>;
  /** Another checkout, built, whose service to run instead of this one's: the previous build. */
  root?: string;
}

export async function startService({ nodeArgs = [], env = {}, root = ROOT }: ServiceOptions = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const port = await freePort();
  const devNull = openSync('/dev/null', 'w');
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist/main.js')], {
    cwd: root,
    env: { ...process.env, ...BENCH_ENV, ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', devNull, 'pipe'],
  });
  closeSync(devNull);
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  // A benchmark that dies (an error, Ctrl-C) leaves no service running behind it.
  const orphaned = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', orphaned);
  const stop = async () => {
    process.off('exit', orphaned);
    child.kill('SIGTERM');
    // It finishes what is in flight and stores its checkpoints; one that hangs is not measured any more.
    const hung = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await waitForExit(child);
    clearTimeout(hung);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await untilHealthy(url, child);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${stderr.join('')}`);
  }
  return { url, dataDir, pid: child.pid!, client: () => request.agent(url), stop };
}
