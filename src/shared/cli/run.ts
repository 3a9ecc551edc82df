import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { CommandContext } from '../commands/context';
import { DomainError } from '../domain/decider';
import { createLogger } from '../../log';
import { openConfiguredStores } from '../../stores';
import { Stores } from '../../stores/ports';

/**
 * Opens the stores the API would use, runs one administration command on them and closes them
 * again, also when the command fails, so that the process can exit. The events are read with the
 * codecs the composition registers: src/cli.ts, which runs every command, loads src/compose.ts.
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

/** One line for stderr: operators read the message, scripts can match the stable reason. */
export function describeFailure(err: unknown): string {
  if (err instanceof DomainError) return `${err.message} (${err.error})`;
  return err instanceof Error ? err.message : String(err);
}
