/**
 * What `platform projections rebuild` costs on a long log: a realistic log of one million events
 * (bench/realistic-log.ts) in a scratch embedded store; this machine's floor for it, the events
 * read, decoded and evolved with nothing stored (bench/rebuild-floor.js); then, in a fresh process
 * so that memory is the rebuild's own, every read model rebuilt aside by the compiled service and
 * swapped in as the runner does (bench/rebuild-measure.js). Reports events per second and peak
 * RSS (process.resourceUsage().maxRSS). Needs `npm run build`, which `npm run bench` does first.
 * Run: node -r ./test/support/load-ts.js bench/rebuild.ts [events] [on|off]; off writes the log
 * without the audit chain (its digests), to measure what the chain costs the rebuild.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRealisticLog } from './realistic-log';
import { checkedBuild } from './settings';
import { setChaining } from '../src/shared/commands/context';

const seconds = (since: number) => (performance.now() - since) / 1000;

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1_000_000);
  if (process.argv[3] === 'off') setChaining(false);
  checkedBuild(join(__dirname, '..'), 'the rebuild bench');
  const dir = mkdtempSync(join(tmpdir(), 'rebuild-bench-'));
  try {
    const started = performance.now();
    const written = await writeRealisticLog(dir, total);
    process.stdout.write(`generated ${written} events in ${seconds(started).toFixed(1)}s\n`);
    for (const script of ['rebuild-floor.js', 'rebuild-measure.js']) {
      const { status } = spawnSync(process.execPath, [join(__dirname, script), dir], { stdio: 'inherit' });
      if (status !== 0) throw new Error(`bench/${script} exited with ${status}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
