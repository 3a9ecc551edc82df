import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ADMIN_PASSWORD } from '../../support/platform';
import { untilHealthy } from '../../support/service-process';

const ROOT = resolve(__dirname, '../../..');

/** The service in a process of its own, as `npm start` runs it, on a data directory and a port. */
export interface Service {
  child: ChildProcess;
  /** http://127.0.0.1:<port>/api/v1 */
  api: string;
  /** Resolves when the process has exited, with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export interface ServiceOptions {
  dataDir: string;
  port: number;
  /** The TypeScript entry point and extra node flags; by default src/main.ts, the real one. */
  entry?: string;
  nodeFlags?: string[];
  env?: NodeJS.ProcessEnv;
}

/** Starts the service and resolves once /readyz answers 200. */
export async function startService(options: ServiceOptions): Promise<Service> {
  const entry = options.entry ?? join(ROOT, 'src/main.ts');
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '-r', join(ROOT, 'test/support/load-ts.js'), entry],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: options.dataDir,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        ADMIN_PASSWORD,
        ADDONS_DIR: join(ROOT, 'addons'),
        // Errors only: a 500's log line shows beside the failing test, a request log per call would drown it.
        LOG_LEVEL: 'error',
        ...options.env,
      },
      // The IPC channel is for test-only entry points that answer messages; src/main.ts ignores it.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const service = { child, api: `http://127.0.0.1:${options.port}/api/v1`, exited };
  try {
    await untilHealthy(`http://127.0.0.1:${options.port}`, child);
  } catch (err) {
    await kill(service);
    throw err;
  }
  return service;
}

/** SIGKILL: no handler runs, nothing is flushed; resolves once the process is gone. */
export async function kill(service: Service): Promise<void> {
  service.child.kill('SIGKILL');
  await service.exited;
}
