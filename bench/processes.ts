/** Child processes for the benchmarks: a TypeScript child with an IPC channel, a clean exit. */
import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const LOAD_TS = join(__dirname, '../test/support/load-ts.js');

/** Runs a TypeScript module of bench/ in its own Node process, with an IPC channel to this one. */
export function forkTs(module: string, args: string[] = [], nodeArgs: string[] = []): ChildProcess {
  return fork(join(__dirname, module), args, {
    execArgv: [...nodeArgs, '-r', LOAD_TS],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The first message the child sends; fails if it exits first. */
export function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) =>
      reject(new Error(`${child.spawnargs.join(' ')} exited with code ${String(code)} before it reported`));
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

/** Runs a bench script's work; a failure is printed, with its stack, and the process exits with 1. */
export function runScript(name: string, work: Promise<void>): void {
  work.catch((err: unknown) => {
    process.stderr.write(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
