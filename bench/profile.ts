/**
 * Where the time goes under the load of (a), (b), (c) or (d): the compiled service (or, for (c),
 * the bare koa baseline) runs with `node --cpu-prof`; autocannon loads GET /open/addons for
 * `seconds`, or `members` registered members go through their flows; the process stops and writes
 * its profile. Only the samples taken while the load ran are summarised: self time by package or
 * source file, the functions with the most self time, and the functions of the service and its
 * packages by total time (self and callees). The samples count wall time: a process waiting for a
 * core is charged to the function it was in, so also compare the CPU time per request it prints.
 * Run: npm run build && node -r ./test/support/load-ts.js bench/profile.ts [a|b|c [seconds] | d [members]] [settings]
 * where settings are NAME=value terms joined by commas, e.g. METRICS_PORT=0 to see what the metrics cost,
 * or, for a profile written elsewhere: bench/profile.ts file <path.cpuprofile> [units it did]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturedAnswer, startBaseline } from './baseline';
import { load } from './load';
import { keyOf, PATH, requestsOf, Target } from './open-api';
import { partnerWithAddons } from './partner';
import { runScript } from './processes';
import { Service, startService } from './service';
import { castOf, runFlows } from './write-path';
import { optionsOf } from './compare-settings';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock process.hrtime reads, in every process of the machine. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The load's start and end, in µs on the profile's clock: start-up and set-up are left out. */
interface Window {
  from: number;
  to: number;
  requests: number;
}

const now = () => Number(process.hrtime.bigint() / 1000n);

const IDLE = new Set(['(idle)', '(program)']);
const TOP = 25;

/** A package under node_modules, a file of the service, a Node internal module, or a V8 pseudo-frame. */
function area(url: string, name: string): string {
  if (url === '') return name;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(dist|src|bench)\/(.+)$/.exec(url);
  if (own) return `${own[1] === 'bench' ? 'bench' : 'service'}: ${own[2]}`;
  return url.replace(/^node:internal\//, 'node: ');
}

const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${area(n.callFrame.url, '')}:${n.callFrame.lineNumber + 1}`;

function summarise(profile: CpuProfile, window: Window): string {
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= window.from && at <= window.to) self.set(id, (self.get(id) ?? 0) + delta / 1000);
  });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const busy = [...self]
    .filter(([id]) => !IDLE.has(byId.get(id)!.callFrame.functionName))
    .reduce((sum, [, ms]) => sum + ms, 0);
  const share = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms`;

  const tally = (key: (n: ProfileNode) => string, value: (n: ProfileNode) => number) => {
    const totals = new Map<string, number>();
    for (const node of profile.nodes) {
      if (IDLE.has(node.callFrame.functionName)) continue;
      totals.set(key(node), (totals.get(key(node)) ?? 0) + value(node));
    }
    return [...totals].sort((x, y) => y[1] - x[1]).slice(0, TOP);
  };
  const selfOf = (n: ProfileNode) => self.get(n.id) ?? 0;

  // Total time of a function: its subtree's self time, counted once where it recurses.
  const total = new Map<string, number>();
  const walk = (id: number, open: Set<string>): number => {
    const node = byId.get(id)!;
    let sum = selfOf(node);
    const key = label(node);
    const first = !open.has(key);
    if (first) open.add(key);
    for (const child of node.children ?? []) sum += walk(child, open);
    if (first) {
      open.delete(key);
      if (/^file:|^\//.test(node.callFrame.url)) total.set(key, (total.get(key) ?? 0) + sum);
    }
    return sum;
  };
  walk(profile.nodes[0]!.id, new Set());

  const section = (title: string, rows: [string, number][]) =>
    [`${title}`, ...rows.map(([name, ms]) => `  ${share(ms)}  ${name}`)].join('\n');
  return [
    `busy time ${busy.toFixed(0)} ms (idle excluded), ${((busy * 1000) / window.requests).toFixed(1)} µs a unit of work (request or event); shares are of the busy time`,
    section(
      'self time by package or file:',
      tally((n) => area(n.callFrame.url, n.callFrame.functionName), selfOf),
    ),
    section('functions by self time:', tally(label, selfOf)),
    section(
      'functions of the service and its packages by total time (self and callees):',
      [...total].sort((x, y) => y[1] - x[1]).slice(0, TOP),
    ),
  ].join('\n\n');
}

/** (a), (b) or (c) under autocannon; the baseline runs profiled for (c). */
async function underOpenApiLoad(
  target: Target,
  service: Service,
  profiled: string[],
  seconds: number,
): Promise<Window> {
  const partner = await partnerWithAddons(service);
  const answer = await capturedAnswer(`${service.url}${PATH}`, keyOf(partner));
  const baseline = await startBaseline(answer, target === 'c' ? profiled : []);
  try {
    const from = now();
    const result = await load({ ...requestsOf(service, partner, baseline)[target], seconds, connections: 16 });
    const cpu =
      result.cpuMicrosPerRequest === null ? '' : `, ${result.cpuMicrosPerRequest.toFixed(1)} µs of CPU a request`;
    process.stdout.write(
      `(${target}) under the profiler: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms${cpu}\n\n`,
    );
    return { from, to: now(), requests: result.responses };
  } finally {
    await baseline.stop();
  }
}

const IN_FLIGHT = 32;

/** (d): registered members' flows, 32 at a time; a request is one of the flows' writes. */
async function underWriteLoad(service: Service, members: number): Promise<Window> {
  const cast = await castOf(service, members, IN_FLIGHT);
  const from = now();
  const flows = await runFlows(cast, IN_FLIGHT).finally(() => cast.connections.destroy());
  process.stdout.write(
    `(d) under the profiler: ${flows.flowsPerSecond.toFixed(1)} flows/s, each p50 ${flows.flowMs.p50.toFixed(0)} ms\n\n`,
  );
  return { from, to: now(), requests: 3 * members };
}

async function main(target: Target | 'd', amount: number, settings: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-profile-'));
  const profiled = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  const service = await startService({
    nodeArgs: target === 'c' ? [] : profiled,
    env: settings ? optionsOf(settings).env : {},
  });
  let window: Window;
  try {
    window =
      target === 'd'
        ? await underWriteLoad(service, amount)
        : await underOpenApiLoad(target, service, profiled, amount);
  } finally {
    await service.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the profiled process wrote no CPU profile');
  process.stdout.write(`${summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, window)}\n`);
  rmSync(dir, { recursive: true, force: true });
}

/** A profile taken elsewhere, e.g. of bench/rebuild.ts under NODE_OPTIONS=--cpu-prof, whole; `units` is what it did (events, requests). */
function summariseFile(file: string, units: number): void {
  const window = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY, requests: units };
  process.stdout.write(`${summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, window)}\n`);
}

const [mode, ...rest] = process.argv.slice(2);
const target = (['a', 'b', 'c', 'd'] as const).find((t) => t === mode) ?? 'a';
const run =
  mode === 'file'
    ? Promise.resolve(summariseFile(rest[0]!, Number(rest[1] ?? 1)))
    : main(target, Number(rest[0] ?? (target === 'd' ? 300 : 10)), rest[1] ?? '');
runScript('profile', run);
