/**
 * What a partner call costs beyond bare koa, symbol by symbol, in CPU time: the compiled service
 * (a) and the bare koa baseline (c) each loaded by autocannon while `perf record` samples the
 * server's CPU clock (every thread, kernel included), then each symbol's share of the samples
 * times the server's CPU a request, and the two subtracted. Unlike bench/profile.ts, whose
 * samples count wall time, this counts only what the process consumed, and sees Node's C++, libc
 * and the kernel beside the JavaScript (`--perf-basic-prof` names the JIT's functions). It found
 * the digest's fresh ArrayBuffer and the duration's every digit (docs/performance.md).
 * Needs `perf` (Debian's linux-perf) and the right to use it; says so when it cannot.
 * Run: npm run build && node -r ./test/support/load-ts.js bench/perf-diff.ts [seconds]; BENCH_CONNECTIONS applies.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Baseline, capturedAnswer, startBaseline } from './baseline';
import { load } from './load';
import { keyOf, PATH, requestsOf, WARM_UP_SECONDS } from './open-api';
import { partnerWithAddons } from './partner';
import { runScript } from './processes';
import { startService } from './service';
import { benchSettings } from './settings';

const SAMPLES_PER_SECOND = 4999;
const TOP = 30;
const PERF_MAPS = ['--perf-basic-prof'];

/** Microseconds of CPU a request, by symbol. */
export type CostBySymbol = Map<string, number>;

/**
 * `perf report --stdio --no-children --sort sym -g none` lines (`  12.34%  [k] name`) as µs a
 * request: each share of the samples times the CPU a request. Paths under `root` are shortened.
 */
export function costsOf(report: string, cpuMicrosPerRequest: number, root: string): CostBySymbol {
  const costs: CostBySymbol = new Map();
  for (const line of report.split('\n')) {
    const match = /^\s*([\d.]+)%\s+\[[^\]]+\]\s+(.+?)\s*$/.exec(line);
    if (!match) continue;
    const name = match[2]!.split(root).join('');
    costs.set(name, (costs.get(name) ?? 0) + (Number(match[1]) * cpuMicrosPerRequest) / 100);
  }
  return costs;
}

/** The symbols by how much more they cost in `a` than in `c`, largest first. */
export function differences(
  a: CostBySymbol,
  c: CostBySymbol,
): { symbol: string; a: number; c: number; more: number }[] {
  const symbols = new Set([...a.keys(), ...c.keys()]);
  return [...symbols]
    .map((symbol) => ({
      symbol,
      a: a.get(symbol) ?? 0,
      c: c.get(symbol) ?? 0,
      more: (a.get(symbol) ?? 0) - (c.get(symbol) ?? 0),
    }))
    .sort((x, y) => y.more - x.more);
}

function perfUsable(): string | null {
  const probe = spawnSync('perf', ['record', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], { encoding: 'utf8' });
  if (probe.error) return `perf is not installed (${probe.error.message}): apt-get install linux-perf`;
  return probe.status === 0 ? null : `perf record cannot run here: ${probe.stderr.trim().split('\n').pop()}`;
}

function record(pid: number, seconds: number, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const perf = spawn(
      'perf',
      [
        'record',
        '-e',
        'cpu-clock',
        '-F',
        String(SAMPLES_PER_SECOND),
        '-o',
        file,
        '-p',
        String(pid),
        '--',
        'sleep',
        String(seconds),
      ],
      { stdio: 'ignore' },
    );
    perf.on('error', reject);
    perf.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited with ${code}`))));
  });
}

function report(file: string): string {
  const out = spawnSync('perf', ['report', '-i', file, '--stdio', '--no-children', '--sort', 'sym', '-g', 'none'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`perf report failed: ${out.stderr}`);
  return out.stdout;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const unusable = perfUsable();
  if (unusable) {
    process.stderr.write(`${unusable}\n`);
    process.exit(1);
  }
  const { connections } = benchSettings(process.env);
  const dir = mkdtempSync(join(tmpdir(), 'perf-diff-'));
  const service = await startService({ nodeArgs: PERF_MAPS });
  let baseline: Baseline | undefined;
  const root = join(__dirname, '..') + '/';
  const costs: Partial<Record<'a' | 'c', CostBySymbol>> = {};
  try {
    const partner = await partnerWithAddons(service);
    baseline = await startBaseline(await capturedAnswer(`${service.url}${PATH}`, keyOf(partner)), PERF_MAPS);
    const runs = requestsOf(service, partner, baseline);
    for (const [target, pid] of [
      ['a', service.pid],
      ['c', baseline.pid],
    ] as const) {
      await load({ ...runs[target], seconds: WARM_UP_SECONDS, connections });
      const file = join(dir, `${target}.data`);
      const [result] = await Promise.all([
        load({ ...runs[target], seconds, connections, pid }),
        record(pid, seconds, file),
      ]);
      const cpu = result.cpuMicrosPerRequest ?? 0;
      process.stdout.write(
        `(${target}) under perf: ${Math.round(result.requestsPerSecond)} req/s, ${cpu.toFixed(1)} µs of CPU a request\n`,
      );
      costs[target] = costsOf(report(file), cpu, root);
    }
  } finally {
    await baseline?.stop();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
    // --perf-basic-prof leaves each process's map of JIT code in /tmp.
    for (const pid of baseline ? [service.pid, baseline.pid] : [service.pid])
      rmSync(join('/tmp', `perf-${pid}.map`), { force: true });
  }
  const rows = differences(costs.a!, costs.c!);
  const line = (r: (typeof rows)[number]) =>
    `${r.more.toFixed(2).padStart(7)}  ${r.a.toFixed(2).padStart(6)}  ${r.c.toFixed(2).padStart(6)}  ${r.symbol.slice(0, 120)}`;
  process.stdout.write(
    `\nµs of CPU a request: (a) − (c), (a), (c), symbol\nmore in (a):\n${rows.slice(0, TOP).map(line).join('\n')}\n`,
  );
  process.stdout.write(`more in (c):\n${rows.slice(-10).reverse().map(line).join('\n')}\n`);
}

if (require.main === module) runScript('perf-diff', main());
