/**
 * What one setting, Node option or build costs (a): a service per variant, each with its own
 * partner, and the bare koa baseline (c) answering the first variant's bytes, loaded in turns
 * round after round like bench/open-api.ts does; each variant's median requests per second, server
 * CPU time per request and (a)/(c) ratio (taken within each round). Every request carries the same
 * header fields, (c)'s included, so that the baseline parses what the service parses.
 * A variant is one argument, of terms joined by commas: NAME=value (a setting), --flag (a Node
 * option) or the path of another checkout, built (its dist/main.js). E.g. what the request log
 * costs, and this build against an earlier one:
 * Run: npm run build && node -r ./test/support/load-ts.js bench/compare-settings.ts LOG_LEVEL=info LOG_LEVEL=silent
 *      node -r ./test/support/load-ts.js bench/compare-settings.ts /tmp/earlier LOG_LEVEL=info --single-threaded-gc
 * BENCH_SECONDS, BENCH_ROUNDS and BENCH_CONNECTIONS apply.
 */
import { Baseline, capturedAnswer, startBaseline } from './baseline';
import { load } from './load';
import { keyOf, PATH, WARM_UP_SECONDS } from './open-api';
import { partnerWithAddons } from './partner';
import { runScript } from './processes';
import { Service, ServiceOptions, startService } from './service';
import { benchSettings, checkedBuild } from './settings';
import { median } from './stats';

interface Target {
  name: string;
  url: string;
  pid: number;
  headers: Record<string, string>;
  requestsPerSecond: number[];
  cpuMicros: number[];
}

interface Variant extends Target {
  service: Service;
  /** This variant's requests per second over the baseline's, round by round. */
  ratios: number[];
}

/** A variant's terms as the service's start options. */
export function optionsOf(variant: string): ServiceOptions {
  const env: Record<string, string> = {};
  const nodeArgs: string[] = [];
  let root: string | undefined;
  for (const term of variant.split(',')) {
    const equals = term.indexOf('=');
    if (term.startsWith('--')) nodeArgs.push(term);
    else if (equals > 0) env[term.slice(0, equals)] = term.slice(equals + 1);
    else if (term !== '') root = term;
    else throw new Error(`"${variant}" has an empty term: NAME=value, --flag or a built checkout, joined by commas`);
  }
  return root === undefined ? { env, nodeArgs } : { env, nodeArgs, root };
}

async function main(names: string[]): Promise<void> {
  if (names.length === 0) throw new Error('name at least one variant, e.g. LOG_LEVEL=info');
  const settings = benchSettings(process.env);
  const variants: Variant[] = [];
  let baseline: Baseline | undefined;
  try {
    for (const name of names) {
      const options = optionsOf(name);
      if (options.root) options.root = checkedBuild(options.root, name);
      const service = await startService(options);
      const partner = await partnerWithAddons(service).catch(async (err: unknown) => {
        await service.stop();
        throw err;
      });
      variants.push({
        name,
        service,
        headers: keyOf(partner),
        url: `${service.url}${PATH}`,
        pid: service.pid,
        requestsPerSecond: [],
        cpuMicros: [],
        ratios: [],
      });
    }
    const first = variants[0]!;
    baseline = await startBaseline(await capturedAnswer(first.url, first.headers));
    const bare: Target = {
      name: '(c) bare koa',
      url: `${baseline.url}${PATH}`,
      pid: baseline.pid,
      headers: first.headers,
      requestsPerSecond: [],
      cpuMicros: [],
    };
    const run = (t: Target, seconds: number) =>
      load({ url: t.url, headers: t.headers, seconds, connections: settings.connections, status: 200, pid: t.pid });
    const targets: Target[] = [...variants, bare];
    for (const t of targets) await run(t, Math.min(WARM_UP_SECONDS, settings.seconds));
    for (let round = 0; round < settings.rounds; round++) {
      for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
        const result = await run(t, settings.seconds);
        t.requestsPerSecond.push(result.requestsPerSecond);
        if (result.cpuMicrosPerRequest !== null) t.cpuMicros.push(result.cpuMicrosPerRequest);
      }
      for (const v of variants) v.ratios.push(v.requestsPerSecond.at(-1)! / bare.requestsPerSecond.at(-1)!);
    }
    const summary = (t: Target, ratios?: number[]) => {
      const cpu = t.cpuMicros.length > 0 ? `, server CPU ${median(t.cpuMicros).toFixed(1)} µs/req` : '';
      const ratio = ratios
        ? `, ${median(ratios).toFixed(3)} of (c) (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')})`
        : '';
      return `${t.name}: ${Math.round(median(t.requestsPerSecond))} req/s${cpu}${ratio} (median of ${settings.rounds})\n`;
    };
    for (const v of variants) process.stdout.write(summary(v, v.ratios));
    process.stdout.write(summary(bare));
  } finally {
    await baseline?.stop();
    for (const v of variants) await v.service.stop();
  }
}

if (require.main === module) runScript('compare-settings', main(process.argv.slice(2)));
