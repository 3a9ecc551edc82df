/** Child processes for the benchmarks: a free port, a TypeScript child with an IPC channel, a clean exit. */
import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

const LOAD_TS = join(__dirname, '../test/support/load-ts.js');

/** A loopback port free right now (the OS picks it; the child binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a TypeScript module of bench/ in its own Node process, with an IPC channel to this one. */
export function forkTs(module: string, args: string[] = [], nodeArgs: string[] = []): ChildProcess {
  return fork(join(__dirname, module), args, { execArgv: [...nodeArgs, '-r', LOAD_TS], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The first message the child sends; fails if it exits first. */
export function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${child.spawnargs.join(' ')} exited with code ${String(code)} before it reported`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

export async function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}
