/**
 * The floor under (f) on this machine: what a rebuild of the log in `dir` would cost on one thread
 * if it did only the work it cannot skip, with the compiled service's own code. `read`: every
 * event read through the event store port and decoded once (upcast and validated), as a rebuild
 * reads it. `evolve`: the same, then applied to every projection that handles it, with every
 * document kept in memory: no document read back, none stored, no bound on memory. A rebuild's
 * rate over this one, measured in alternating rounds, is the share of the machine the rebuild's
 * own machinery (batches, generations, storing) leaves to the work itself; and when even this rate
 * is under a target, no change to that machinery alone can meet it on this machine.
 * Run: node bench/rebuild-floor.js <dir> [read|evolve, default evolve] [checkout, default this one]
 */
const { join, resolve } = require('node:path');

const [dir, mode = 'evolve', checkout = join(__dirname, '..')] = process.argv.slice(2);
if (!dir || !['read', 'evolve'].includes(mode)) {
  process.stderr.write('usage: node bench/rebuild-floor.js <dir> [read|evolve] [checkout]\n');
  process.exit(2);
}
const dist = (module) => require(join(resolve(checkout), 'dist', module));
const { PROJECTIONS } = dist('compose');
const { decodeEvent } = dist('shared/domain/events');
const { openSqliteStores } = dist('stores/sqlite');

const PAGE = 1000;

/** The projections that handle each event type, each with all of its documents in one map. */
function routesOf(projections) {
  const routes = new Map();
  for (const projection of projections) {
    const held = { projection, documents: new Map() };
    for (const type of projection.handles) routes.set(type, [...(routes.get(type) ?? []), held]);
  }
  return routes;
}

async function measure() {
  const stores = openSqliteStores(dir);
  const routes = routesOf(PROJECTIONS);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let events = 0;
  let position = '';
  for (;;) {
    const page = await stores.events.readAll(position, PAGE);
    if (page.length === 0) break;
    for (const event of page) {
      const route = routes.get(event.type);
      if (route === undefined) continue;
      const decoded = decodeEvent(event);
      if (mode === 'read') continue;
      for (const { projection, documents } of route) {
        for (const id of projection.documentIds(decoded))
          documents.set(id, projection.evolve(documents.get(id) ?? null, decoded));
      }
    }
    events += page.length;
    position = page[page.length - 1].position;
  }
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpuBefore);
  await stores.close();
  const rate = Math.round(events / elapsed);
  const perCpuSecond = Math.round(events / ((user + system) / 1e6));
  const peak = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `floor (${mode}): events=${events} time=${elapsed.toFixed(1)}s rate=${rate} events/s (${perCpuSecond} per CPU second) peak RSS=${peak} MB\n`,
  );
  process.stdout.write(
    `${JSON.stringify({ floor: { mode, events, events_per_second: rate, events_per_cpu_second: perCpuSecond, peak_rss_mb: peak } })}\n`,
  );
}

measure().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
