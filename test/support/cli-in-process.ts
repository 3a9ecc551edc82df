import { Command, CommanderError } from 'commander';
import { platformProgram } from '../../src/cli-program';
import { describeFailure } from '../../src/shared/cli/failure';
import type { Run } from './cli';

/**
 * `platform …` run in this process, as src/cli.ts runs it: the same program, its answer on stdout,
 * a failure as one `platform: …` line on stderr and exit code 1. A spawned command line costs a
 * Node start and the compilation of its modules (3 to 5 s a run on a busy machine, the whole
 * service for `platform history`), and the tamper matrix runs it dozens of times; what only the
 * process shows (its exit, a closed pipe) is tested with the real `platform` (./cli.ts).
 */
export async function platformInProcess(dataDir: string, args: string[]): Promise<Run> {
  const out = { stdout: '', stderr: '' };
  const restore = [capture(process.stdout, out, 'stdout'), capture(process.stderr, out, 'stderr'), setDataDir(dataDir)];
  let code = 0;
  try {
    const program = platformProgram(args[0]);
    exitOverride(program);
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    // A usage error commander has already written out, with the code it would exit with.
    if (err instanceof CommanderError) code = err.exitCode;
    else {
      out.stderr += `platform: ${describeFailure(err)}\n`;
      code = 1;
    }
  } finally {
    for (const undo of restore) undo();
  }
  return { code, ...out };
}

/** Commander exits the process on a usage error unless told to throw it: here, the test's process. */
function exitOverride(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) exitOverride(sub);
}

function capture(stream: NodeJS.WriteStream, out: Record<'stdout' | 'stderr', string>, into: 'stdout' | 'stderr') {
  const write = stream.write;
  stream.write = ((chunk: string | Uint8Array) => {
    out[into] += String(chunk);
    return true;
  }) as typeof stream.write;
  return () => {
    stream.write = write;
  };
}

function setDataDir(dataDir: string) {
  const before = process.env.DATA_DIR;
  process.env.DATA_DIR = dataDir;
  return () => {
    if (before === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = before;
  };
}
