/**
 * The measuring half of bench/rebuild.ts: every read model of the store in DATA_DIR-like `dir`
 * rebuilt aside and swapped in, by the compiled service (dist/, `npm run build`) as `platform
 * projections rebuild` runs it. Plain JavaScript, run without the TypeScript loader, whose compiler
 * would otherwise add about 30 MB to the peak RSS measured.
 * Prints one human line, then the same figures as one JSON line for bench/rebuild-figures.ts.
 * Run: node bench/rebuild-measure.js <dir> [checkout, default this one]
 */
const { join, resolve } = require('node:path');

const [dir, checkout = join(__dirname, '..')] = process.argv.slice(2);
const dist = (module) => require(join(resolve(checkout), 'dist', module));
const { PROJECTIONS } = dist('compose');
const { progressBar } = dist('shared/cli/progress');
const { asideOf, rebuildAside } = dist('shared/projections/rebuild');
const { openSqliteStores } = dist('stores/sqlite');

const MB = 1024;
const seconds = (since) => (performance.now() - since) / 1000;

async function measure() {
  const stores = openSqliteStores(dir);
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
    await stores.documents.replaceCollection(projection.collection.name, asideOf(projection).name, {
      projection: projection.name,
      position: built.position,
    });
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
  const figures = {
    events: built.events,
    events_per_second: rate,
    events_per_cpu_second: perCpuSecond,
    peak_rss_mb: peak,
    swap_seconds: Number(swapSeconds.toFixed(2)),
    rss_before_mb: Math.round(before),
  };
  process.stdout.write(`${JSON.stringify({ rebuild: figures })}\n`);
}

measure().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
