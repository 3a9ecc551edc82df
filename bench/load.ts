/**
 * One autocannon run against one URL: requests per second and latency percentiles. autocannon's
 * own latency histogram has a resolution of 1 ms, too coarse for answers that take a fraction of
 * one, so every response's time (process.hrtime, in ms) is also kept and the percentiles come
 * from those. At a fixed rate autocannon corrects its histogram for coordinated omission (a late
 * answer delays the requests queued behind it); that corrected p99 is reported beside ours.
 */
import autocannon from 'autocannon';
import { cpuMillis } from './cpu-time';
import { percentile } from './stats';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  /** Requests per second over all connections; unset: as fast as the server answers. */
  overallRate?: number;
  /** The status every answer should have; others are counted in `unexpected`. */
  status: number;
  /** The server's process, to report its CPU time per request. */
  pid?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds, from every response's own time. */
  p50: number;
  p99: number;
  /** autocannon's p99 in whole ms, corrected for coordinated omission when the rate is fixed. */
  p99Autocannon: number;
  responses: number;
  /** Answers with another status, connection errors and timeouts. */
  unexpected: number;
  statuses: Record<string, number>;
  /** The server's CPU time (user and system) per answer, in µs; null when unknown. */
  cpuMicrosPerRequest: number | null;
}

export async function load(run: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  const options: autocannon.Options = {
    url: run.url,
    headers: run.headers,
    duration: run.seconds,
    connections: run.connections,
    pipelining: 1,
    ...(run.overallRate === undefined ? {} : { overallRate: run.overallRate }),
  };
  const cpuBefore = run.pid === undefined ? null : cpuMillis(run.pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err: Error | null, res: autocannon.Result) =>
      err ? reject(err) : resolve(res),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  const cpuAfter = run.pid === undefined ? null : cpuMillis(run.pid);
  times.sort((a, b) => a - b);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
  );
  const expected = statuses[String(run.status)] ?? 0;
  return {
    requestsPerSecond: times.length / result.duration,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    p99Autocannon: result.latency.p99,
    responses: times.length,
    unexpected: times.length - expected + result.errors + result.timeouts,
    statuses,
    cpuMicrosPerRequest:
      cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / times.length,
  };
}
