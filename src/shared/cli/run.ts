import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { CommandContext } from '../commands/context';
import { createLogger } from '../../log';
import { openConfiguredStores } from '../../stores';
import { Stores } from '../../stores/ports';

/**
 * Opens the stores the API would use, runs one administration command on them and closes them
 * again, also when the command fails, so that the process can exit. The events are read with the
 * codecs the slices register: src/cli.ts, which runs every command, loads src/event-registry.ts.
 */
export async function withStores(
  work: (stores: Stores, ctx: CommandContext) => Promise<void>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  // Warnings only, and on stderr: stdout carries the command's answer, which --json makes machine-read.
  const stores = await openConfiguredStores(env, createLogger('warn', process.stderr));
  try {
    await work(stores, cliContext());
  } finally {
    await stores.close();
  }
}

/** Events appended from the command line name the operating-system user who ran it. */
function cliContext(): CommandContext {
  return { actor: { kind: 'cli', id: operator() }, requestId: randomUUID(), now: new Date() };
}

function operator(): string | null {
  try {
    return userInfo().username;
  } catch {
    // Containers often run under a uid with no passwd entry, where userInfo() throws.
    return process.env.USER ?? null;
  }
}
