import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The benchmark's knobs, from the environment, so that a quick smoke run is one variable away. */
export const PARTS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchSettings {
  /** BENCH_SECONDS: length of each autocannon run. */
  seconds: number;
  /** BENCH_PARTS: which parts run, e.g. "a,b,c,d,e" to skip the rebuild. */
  parts: Set<Part>;
  /** BENCH_ROUNDS: (c), (a) and (b) run this many times each, alternating, so noise hits all three; so do (d) and the previous build with BENCH_PREVIOUS. */
  rounds: number;
  /** BENCH_CONNECTIONS: concurrent keep-alive connections of each autocannon run. */
  connections: number;
  /** BENCH_MEMBERS: members registered before (d) starts; each goes through one flow. */
  members: number;
  /** BENCH_CONCURRENCY: flows of (d) in flight at once; connections of the flood in (g). */
  concurrency: number;
  /** BENCH_REBUILD_EVENTS: length of the log (f) rebuilds. */
  rebuildEvents: number;
  /** BENCH_PREVIOUS: another checkout, built, that (d) measures in alternating rounds against this one. */
  previous?: string;
  /** BENCH_METRICS=compare: (a) also against a second service with its metrics listener on (METRICS_PORT=0), in the same rounds. */
  metrics: boolean;
  /** BENCH_RECENT_CALLS=compare: (a) also against a second service with recent calls off (RECENT_CALLS=false), in the same rounds. */
  recentCalls: boolean;
  /**
   * BENCH_CHAIN: 'on' (the service as it runs), or 'both': (d) in alternating rounds and (f) on a
   * log of each, with the audit chain off and on, in the same run: what the chain costs.
   */
  chain: 'on' | 'both';
}

export function benchSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const parts = (env.BENCH_PARTS ?? PARTS.join(',')).split(',').map((p) => p.trim());
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new Error(`BENCH_PARTS: unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  return {
    seconds: positive(env, 'BENCH_SECONDS', 10),
    parts: new Set(parts as Part[]),
    rounds: positive(env, 'BENCH_ROUNDS', 3),
    connections: positive(env, 'BENCH_CONNECTIONS', 16),
    members: positive(env, 'BENCH_MEMBERS', 1000),
    concurrency: positive(env, 'BENCH_CONCURRENCY', 32),
    rebuildEvents: positive(env, 'BENCH_REBUILD_EVENTS', 1_000_000),
    previous: builtCheckout(env, 'BENCH_PREVIOUS'),
    metrics: metricsComparison(env.BENCH_METRICS),
    recentCalls: metricsComparison(env.BENCH_RECENT_CALLS, 'BENCH_RECENT_CALLS'),
    chain: chainSetting(env.BENCH_CHAIN),
  };
}

function chainSetting(raw: string | undefined): BenchSettings['chain'] {
  if (raw === undefined || raw === '' || raw === 'on') return 'on';
  if (raw === 'both') return 'both';
  throw new Error(`BENCH_CHAIN must be on or both, not "${raw}"`);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number of at least 1, not "${raw}"`);
  return value;
}

function metricsComparison(raw: string | undefined, name = 'BENCH_METRICS'): boolean {
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw === 'compare') return true;
  throw new Error(`${name} must be compare (or off), not "${raw}"`);
}

function builtCheckout(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const dir = env[name];
  return dir === undefined || dir === '' ? undefined : checkedBuild(dir, name);
}

/** The absolute path of a checkout whose service can be started (its dist/main.js is built). */
export function checkedBuild(dir: string, what: string): string {
  if (!existsSync(join(dir, 'dist/main.js')))
    throw new Error(`${what}: no dist/main.js in ${dir}; run npm run build there first`);
  return resolve(dir);
}
