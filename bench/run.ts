/**
 * `npm run bench`: every benchmark of issue 7 (and the login flood of issue 14) from one entry, a table of the figures against their
 * targets, and bench/results/<date>.json with the machine and the command. Each part is a module
 * of its own; BENCH_* variables (bench/settings.ts) choose the parts and their length.
 */
import { commandLine, loadAverageNow, machine } from './machine';
import { benchLoginFlood } from './login-flood';
import { benchOpenApi } from './open-api';
import { runScript } from './processes';
import { benchRebuild } from './rebuild-figures';
import { Results, table, writeResults } from './report';
import { benchSettings } from './settings';
import { benchWritePath } from './write-path';
import { benchChainCost } from './chain-cost';

async function main(): Promise<void> {
  const settings = benchSettings(process.env);
  const { parts } = settings;
  const results: Results = {
    date: new Date().toISOString().slice(0, 10),
    command: commandLine(process.env),
    machine: machine(),
    settings: { ...settings, parts: [...parts] },
  };
  process.stdout.write(
    `${results.command}\n${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}\n`,
  );
  const open = (['a', 'b', 'c'] as const).filter((p) => parts.has(p));
  if (open.length > 0) {
    process.stdout.write(`open API: ${open.map((p) => `(${p})`).join(', ')}\n`);
    results.open_api = await benchOpenApi(settings);
  }
  // (e) is measured under the load of (d), so asking for (e) runs (d). BENCH_CHAIN=both measures
  // (d) and (f) its own way, below, with the chain off and on.
  const plain = settings.chain === 'on';
  if ((plain && parts.has('d')) || parts.has('e')) {
    process.stdout.write(`write path: (d)${parts.has('e') ? ' and projection lag (e)' : ''}\n`);
    const { write, lag, comparison } = await benchWritePath(settings, parts.has('e'));
    results.write_path = write;
    if (comparison) results.write_path_against_previous = comparison;
    if (lag) results.projection_lag = lag;
  }
  if (plain && parts.has('f')) {
    process.stdout.write(`rebuild: (f), ${settings.rebuildEvents.toLocaleString('en')} events\n`);
    results.rebuild = await benchRebuild(settings.rebuildEvents);
  }
  if (!plain && (parts.has('d') || parts.has('f'))) {
    process.stdout.write('the audit chain off and on: (d) and (f)\n');
    results.chain_cost = await benchChainCost(settings);
  }
  if (parts.has('g')) {
    process.stdout.write(`login under a flood of made-up usernames: (g), ${settings.concurrency} connections\n`);
    results.login_flood = await benchLoginFlood(settings);
  }
  results.machine.load_average.end = loadAverageNow();
  process.stdout.write(
    `\n${table(results)}\n\nwritten to ${writeResults(results, process.env.BENCH_RESULTS_DIR || undefined)}\n`,
  );
}

// Ctrl-C exits through the 'exit' handlers, which stop the services started so far.
process.once('SIGINT', () => process.exit(130));

runScript('bench', main());
