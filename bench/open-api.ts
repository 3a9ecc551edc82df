/**
 * (a) GET /open/addons with a valid key and scope, (b) the same with a wrong key, (c) a bare koa
 * server in its own process answering (a)'s bytes. After a warm-up of each, the three run in
 * turns, round after round, in alternating order, so that what else the machine does falls on all
 * three; each ratio is taken within a round, then the median over rounds. Last, (a) again at half
 * its maximum rate, for its latency when the service is not saturated. With BENCH_METRICS=compare,
 * (m) is (a) against a second service whose metrics listener is on, in the same rounds: what the
 * operators' metrics cost a partner call (docs/operations.md). Both services are idle while the
 * other is loaded. With BENCH_RECENT_CALLS=compare, (r) is (a) against a second service with
 * recent calls off (RECENT_CALLS=false), in the same rounds: what keeping each credential's last
 * calls costs a partner call (docs/credentials.md).
 */
import { mistypedKey, Partner } from '../test/support/credentials';
import { Baseline, capturedAnswer, startBaseline } from './baseline';
import { load, LoadOptions, LoadResult } from './load';
import { partnerWithAddons } from './partner';
import { Service, startService } from './service';
import { BenchSettings, Part } from './settings';
import { median } from './stats';

export const PATH = '/api/v1/open/addons';
export const WARM_UP_SECONDS = 3;

export type Target = 'a' | 'b' | 'c';
/** (m): (a) on the service with its metrics listener on (BENCH_METRICS=compare); (r): with recent calls off (BENCH_RECENT_CALLS=compare). */
type Measured = Target | 'm' | 'r';

type Run = Pick<LoadOptions, 'url' | 'headers' | 'status' | 'pid'>;

export interface OpenApiFigures {
  /** The answer (c) repeats: (a)'s status, content type and size. */
  answer: { status: number; headers: Record<string, string>; bytes: number };
  /** Each run, round by round. */
  rounds: Partial<Record<Measured, LoadResult>>[];
  /** Median over the rounds of each figure. */
  median: Partial<
    Record<Measured, { requestsPerSecond: number; p50: number; p99: number; cpuMicrosPerRequest: number | null }>
  >;
  /** Median over the rounds of each round's ratio of requests per second. */
  ratios: { aToC?: number; bToC?: number; mToC?: number; mToA?: number; aToR?: number; cpuAToR?: number };
  halfRate?: { rate: number; result: LoadResult };
}

export async function benchOpenApi(settings: BenchSettings): Promise<OpenApiFigures> {
  const metered = settings.metrics && settings.parts.has('a');
  const unrecorded = settings.recentCalls && settings.parts.has('a');
  const targets = (['c', 'a', 'b', 'm', 'r'] as const).filter((t) =>
    t === 'm' ? metered : t === 'r' ? unrecorded : settings.parts.has(t as Part),
  );
  const service = await startService();
  let withMetrics: Service | undefined;
  let withoutRecentCalls: Service | undefined;
  let baseline: Baseline | undefined;
  try {
    const partner = await partnerWithAddons(service);
    const answer = await capturedAnswer(`${service.url}${PATH}`, keyOf(partner));
    baseline = await startBaseline(answer);
    const runs: Partial<Record<Measured, Run>> = requestsOf(service, partner, baseline);
    if (metered) {
      withMetrics = await startService({ env: { METRICS_PORT: '0' } });
      runs.m = requestsOf(withMetrics, await partnerWithAddons(withMetrics), baseline).a;
    }
    if (unrecorded) {
      withoutRecentCalls = await startService({ env: { RECENT_CALLS: 'false' } });
      runs.r = requestsOf(withoutRecentCalls, await partnerWithAddons(withoutRecentCalls), baseline).a;
    }
    const run = (target: Measured, seconds: number, overallRate?: number) =>
      load({ ...runs[target]!, seconds, connections: settings.connections, overallRate });

    for (const target of targets) await run(target, Math.min(WARM_UP_SECONDS, settings.seconds));
    const rounds: Partial<Record<Measured, LoadResult>>[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const results: Partial<Record<Measured, LoadResult>> = {};
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        results[target] = checked(target, await run(target, settings.seconds));
        process.stdout.write(
          `  round ${round + 1} (${target}): ${Math.round(results[target].requestsPerSecond)} req/s\n`,
        );
      }
      rounds.push(results);
    }
    const figures: OpenApiFigures = {
      answer: { status: answer.status, headers: answer.headers, bytes: answer.body.length },
      rounds,
      median: Object.fromEntries(targets.map((t) => [t, medians(rounds.map((r) => r[t]!))])),
      ratios: {
        ...(targets.includes('a') && targets.includes('c') ? { aToC: ratio(rounds, 'a') } : {}),
        ...(targets.includes('b') && targets.includes('c') ? { bToC: ratio(rounds, 'b') } : {}),
        ...(metered && targets.includes('c') ? { mToC: ratio(rounds, 'm') } : {}),
        ...(metered ? { mToA: ratio(rounds, 'm', 'a') } : {}),
        ...(unrecorded ? { aToR: ratio(rounds, 'a', 'r'), cpuAToR: cpuRatio(rounds, 'a', 'r') } : {}),
      },
    };
    if (targets.includes('a')) {
      const rate = Math.round(figures.median.a!.requestsPerSecond / 2);
      figures.halfRate = { rate, result: checked('a', await run('a', settings.seconds, rate)) };
    }
    return figures;
  } finally {
    await baseline?.stop();
    await withMetrics?.stop();
    await withoutRecentCalls?.stop();
    await service.stop();
  }
}

export const keyOf = (partner: Partner) => ({ 'X-API-ID': partner.apiid, 'X-API-Key': partner.apikey });

/** What each of (a), (b) and (c) requests, and the status every answer must have. */
export function requestsOf(service: Service, partner: Partner, baseline: Baseline): Record<Target, Run> {
  const url = `${service.url}${PATH}`;
  return {
    a: { url, headers: keyOf(partner), status: 200, pid: service.pid },
    b: { url, headers: { ...keyOf(partner), 'X-API-Key': mistypedKey(partner.apikey) }, status: 401, pid: service.pid },
    c: { url: `${baseline.url}${PATH}`, status: 200, pid: baseline.pid },
  };
}

/** A run whose answers are not all the expected ones measured something else: stop there. */
function checked(target: Measured, result: LoadResult): LoadResult {
  if (result.unexpected > 0) {
    throw new Error(
      `(${target}): ${result.unexpected} of ${result.responses} answers were not the expected ones: ${JSON.stringify(result.statuses)}`,
    );
  }
  return result;
}

function medians(results: LoadResult[]) {
  return {
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    cpuMicrosPerRequest: results.some((r) => r.cpuMicrosPerRequest === null)
      ? null
      : median(results.map((r) => r.cpuMicrosPerRequest!)),
  };
}

function ratio(rounds: Partial<Record<Measured, LoadResult>>[], target: Measured, over: Measured = 'c'): number {
  return median(rounds.map((r) => r[target]!.requestsPerSecond / r[over]!.requestsPerSecond));
}

/** Median over the rounds of the server CPU per request of `target` over `over`'s: above 1, `target` costs more. */
function cpuRatio(
  rounds: Partial<Record<Measured, LoadResult>>[],
  target: Measured,
  over: Measured,
): number | undefined {
  const cpu = (r: Partial<Record<Measured, LoadResult>>, t: Measured) => r[t]!.cpuMicrosPerRequest;
  if (rounds.some((r) => cpu(r, target) === null || cpu(r, over) === null)) return undefined;
  return median(rounds.map((r) => cpu(r, target)! / cpu(r, over)!));
}
