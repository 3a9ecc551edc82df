import { Command, CommanderError } from 'commander';
import { auditCommand } from '../../../src/audit/proof/cli';
import { describeRegisteredEvent } from '../../../src/event-registry';
import { describeFailure } from '../../../src/shared/cli/failure';
import { withStores } from '../../../src/shared/cli/run';
import type { Run } from '../../support/cli';

/**
 * `platform audit …` run in this process, wired as src/cli.ts wires it: the same command and event
 * wording, its answer on stdout, a failure as one `platform: …` line on stderr and exit code 1.
 * A spawned command line costs a Node start and the compilation of its modules, seconds each on a
 * busy machine, and the tamper matrix runs it dozens of times; each suite still runs the real
 * `platform` process where the process itself is what is tested (support/cli.ts).
 */
export async function auditCli(dataDir: string, args: string[]): Promise<Run> {
  const [name, ...rest] = args;
  if (name !== 'audit') throw new Error(`auditCli runs \`platform audit\`, not \`platform ${name}\``);
  const out = { stdout: '', stderr: '' };
  const restore = [capture(process.stdout, out, 'stdout'), capture(process.stderr, out, 'stderr'), setDataDir(dataDir)];
  let code = 0;
  try {
    const program = new Command('platform').addCommand(auditCommand(describeRegisteredEvent, withStores));
    exitOverride(program);
    await program.parseAsync(['audit', ...rest], { from: 'user' });
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
