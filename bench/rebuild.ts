/**
 * What `platform projections rebuild` costs on a long log: a realistic log of one million events
 * (bench/realistic-log.ts) in a scratch embedded store, then, in a fresh process so that memory
 * is the rebuild's own, every read model rebuilt aside and swapped in as the runner does.
 * Reports events per second and peak RSS (process.resourceUsage().maxRSS).
 * Run: node -r ./test/support/load-ts.js bench/rebuild.ts [events]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECTIONS } from '../src/compose';
import { progressBar } from '../src/shared/cli/progress';
import { asideOf, rebuildAside } from '../src/shared/projections/rebuild';
import { openSqliteStores } from '../src/stores/sqlite';
import { writeRealisticLog } from './realistic-log';

const MB = 1024;
const seconds = (since: number) => (performance.now() - since) / 1000;

async function measure(dataDir: string): Promise<void> {
  const stores = openSqliteStores(dataDir);
  const before = process.resourceUsage().maxRSS / MB;
  const progress = progressBar(process.stdout, 'rebuild');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const built = await rebuildAside(stores.events, stores.documents, PROJECTIONS, (p) => progress.update(p));
  progress.finish();
  const rebuildSeconds = seconds(started);
  // Per second of CPU (every thread): less moved than the wall clock by other work on the machine.
  const { user, system } = process.cpuUsage(cpuBefore);
  const perCpuSecond = Math.round(built.events / ((user + system) / 1e6));
  const swapStarted = performance.now();
  for (const projection of PROJECTIONS) {
    await stores.documents.replaceCollection(projection.collection.name, asideOf(projection).name, { projection: projection.name, position: built.position });
  }
  const swapSeconds = seconds(swapStarted);
  await stores.close();
  const rate = Math.round(built.events / rebuildSeconds);
  const peak = Math.round(process.resourceUsage().maxRSS / MB);
  const line = [
    `events=${built.events}`,
    `rebuild=${rebuildSeconds.toFixed(1)}s`,
    `rate=${rate} events/s`,
    `(${perCpuSecond} per CPU second)`,
    `swap=${swapSeconds.toFixed(2)}s`,
    `peak RSS=${peak} MB`,
    `(${Math.round(before)} MB before the rebuild)`,
  ];
  process.stdout.write(`${line.join(' ')}\n`);
  // The same figures as one JSON line, for bench/run.ts, which runs this as a child process.
  const figures = { events: built.events, events_per_second: rate, events_per_cpu_second: perCpuSecond, peak_rss_mb: peak, swap_seconds: Number(swapSeconds.toFixed(2)), rss_before_mb: Math.round(before) };
  process.stdout.write(`${JSON.stringify({ rebuild: figures })}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') return measure(process.argv[3]!);
  const total = Number(process.argv[2] ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'rebuild-bench-'));
  try {
    const started = performance.now();
    const written = await writeRealisticLog(dir, total);
    process.stdout.write(`generated ${written} events in ${seconds(started).toFixed(1)}s\n`);
    const args = ['-r', join(__dirname, '../test/support/load-ts.js'), __filename, '--measure', dir];
    const { status } = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (status !== 0) throw new Error(`the measuring process exited with ${status}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
