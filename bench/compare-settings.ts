/**
 * What one setting costs (a): a service per variant, each with its own partner, loaded in turns
 * round after round like bench/open-api.ts does, and each variant's median requests per second and
 * server CPU time per request. E.g. what the request log costs:
 * Run: npm run build && node -r ./test/support/load-ts.js bench/compare-settings.ts LOG_LEVEL=info LOG_LEVEL=silent
 * BENCH_SECONDS, BENCH_ROUNDS and BENCH_CONNECTIONS apply.
 */
import { load } from './load';
import { PATH } from './open-api';
import { partnerWithAddons } from './partner';
import { Service, startService } from './service';
import { benchSettings } from './settings';
import { median } from './stats';

interface Variant {
  name: string;
  service: Service;
  headers: Record<string, string>;
  requestsPerSecond: number[];
  cpuMicros: number[];
}

async function main(assignments: string[]): Promise<void> {
  const settings = benchSettings(process.env);
  const variants: Variant[] = [];
  try {
    for (const name of assignments) {
      const [key, value] = name.split('=') as [string, string | undefined];
      if (!key || value === undefined) throw new Error(`"${name}" is not NAME=value`);
      const service = await startService({ env: { [key]: value } });
      variants.push({ name, service, headers: {}, requestsPerSecond: [], cpuMicros: [] });
      const partner = await partnerWithAddons(service);
      variants.at(-1)!.headers = { 'X-API-ID': partner.apiid, 'X-API-Key': partner.apikey };
    }
    const run = (v: Variant, seconds: number) =>
      load({ url: `${v.service.url}${PATH}`, headers: v.headers, seconds, connections: settings.connections, status: 200, pid: v.service.pid });
    for (const v of variants) await run(v, Math.min(3, settings.seconds));
    for (let round = 0; round < settings.rounds; round++) {
      for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
        const result = await run(v, settings.seconds);
        v.requestsPerSecond.push(result.requestsPerSecond);
        if (result.cpuMicrosPerRequest !== null) v.cpuMicros.push(result.cpuMicrosPerRequest);
      }
    }
    for (const v of variants) {
      const cpu = v.cpuMicros.length > 0 ? `, server CPU ${median(v.cpuMicros).toFixed(1)} µs/req` : '';
      process.stdout.write(`${v.name}: ${Math.round(median(v.requestsPerSecond))} req/s${cpu} (median of ${settings.rounds})\n`);
    }
  } finally {
    for (const v of variants) await v.service.stop();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`compare-settings failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
