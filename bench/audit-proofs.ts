/**
 * What an audit proof costs on a long log (docs/performance.md, "Audit proofs"): a realistic log
 * of AUDIT_BENCH_EVENTS events (default 1,000,000) written straight through the SQLite event store,
 * the checkpointer run over it to its first checkpoint (which builds the tree's tiles), a few more
 * checkpoints after more events, then AUDIT_BENCH_PROOFS inclusion proofs of random events and as
 * many consistency proofs between the checkpoints, timed one by one as the endpoints make them.
 * With AUDIT_BENCH_HTTP=1, then as many GET /audit/proof over HTTP to the service started on the
 * same data directory, an auditor's session and koa included.
 *
 *   node -r ./test/support/load-ts.js bench/audit-proofs.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { CHECKPOINT_STREAM, CHECKPOINT_TYPE } from '../src/audit/proof/checkpoint';
import { AuditCheckpointer } from '../src/audit/proof/checkpointer';
import { PROJECTIONS } from '../src/compose';
import { consistencyProof, inclusionProof } from '../src/audit/proof/proofs';
import { AuditTree } from '../src/audit/proof/tree-store';
import { toNewEvents } from '../src/shared/commands/context';
import { RecordedEvent, START, Stores } from '../src/stores/ports';
import { openSqliteStores } from '../src/stores/sqlite';
import { ADMIN_PASSWORD, startPlatform } from '../test/support/platform';
import { seededRandom } from '../test/unit/stores/seeded-random';
import { machine } from './machine';
import { writeRealisticLog } from './realistic-log';
import { distribution } from './stats';

const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);
const PROOFS = Number(process.env.AUDIT_BENCH_PROOFS ?? 1000);
const LATER_CHECKPOINTS = 3;
const WARM_UP = 100;
const ORIGIN = 'bench.example/audit';

const seconds = (from: number): string => ((performance.now() - from) / 1000).toFixed(1);
const sizes = async (stores: Stores): Promise<number[]> =>
  (await stores.events.readStream(CHECKPOINT_STREAM))
    .filter((e) => e.type === CHECKPOINT_TYPE)
    .map((e) => e.data.size as number);

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Every event id of the log, in order, read once: the proofs ask for random ones. */
async function idsOf(stores: Stores): Promise<string[]> {
  const ids: string[] = [];
  for (
    let from = START, batch: RecordedEvent[];
    (batch = await stores.events.readAll(from, 10_000)).length > 0;
    from = batch.at(-1)!.position
  )
    ids.push(...batch.map((e) => e.id!));
  return ids;
}

/** Times each run after as many untimed ones as warm a service that has answered a while. */
async function timed<T>(runs: number, run: (i: number) => Promise<T>): Promise<ReturnType<typeof distribution>> {
  for (let i = 0; i < WARM_UP; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run(i);
    samples.push(performance.now() - start);
  }
  return distribution(samples);
}

/** GET /audit/proof as an auditor calls it, once the service's read models have caught up with the log. */
async function overHttp(dir: string, id: () => string): Promise<ReturnType<typeof distribution>[]> {
  const start = performance.now();
  const t = await startPlatform({ AUDIT_LOG_ORIGIN: ORIGIN }, dir);
  const auditor = t.client();
  for (;;) {
    const session = await auditor.get('/api/v1/admin/session');
    const login = await auditor
      .post('/api/v1/admin/login')
      .set('X-CSRF-Token', session.body.data.csrf_token)
      .send({ username: 'admin', password: ADMIN_PASSWORD });
    if (login.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // The read models rebuilt over the log run in the same process: timed after they caught up.
  const head = await t.platform.stores.events.headPosition();
  const projections = PROJECTIONS.map((p) => p.name);
  await until(async () =>
    (await t.platform.stores.documents.checkpoints(projections)).every((position) => position >= head),
  );
  process.stdout.write(`service: started and caught up in ${seconds(start)} s\n`);
  const proof = async () => {
    const res = await auditor.get('/api/v1/audit/proof').query({ event: id() });
    if (res.status !== 200) throw new Error(`GET /audit/proof answered ${res.status}: ${res.text}`);
  };
  // Twice: the service's other followers of the log (notifiers, watches) may still be catching up during the first.
  const rounds = [await timed(PROOFS, proof), await timed(PROOFS, proof)];
  await t.close();
  return rounds;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-proofs-'));
  const log = pino({ level: 'warn' });
  try {
    let start = performance.now();
    const written = await writeRealisticLog(dir, EVENTS);
    process.stdout.write(`log: ${written.toLocaleString('en')} events written in ${seconds(start)} s\n`);

    const stores = openSqliteStores(dir);
    const checkpointer = new AuditCheckpointer(
      stores.events,
      stores.documents,
      { file: join(dir, 'audit-signing-key.pem'), origin: ORIGIN, create: true },
      100,
      log,
    );
    start = performance.now();
    await checkpointer.start();
    await until(async () => (await sizes(stores)).length > 0);
    process.stdout.write(
      `tree: built and first checkpoint signed over ${(await sizes(stores))[0]!.toLocaleString('en')} events in ${seconds(start)} s\n`,
    );
    for (let round = 1; round <= LATER_CHECKPOINTS; round++) {
      const stream = `bench-${round}`;
      const more = Array.from({ length: 1000 }, (_, n) => ({ type: 'PlatformSeeded', data: { n } }));
      const ctx = { actor: { kind: 'system' as const, id: 'bench' }, requestId: stream, now: new Date() };
      await stores.events.append(
        stream,
        toNewEvents(more, ctx, stream, { expected: 'no_stream', digest: null }),
        'no_stream',
      );
      await until(async () => (await sizes(stores)).length > round);
    }
    const head = await stores.events.headPosition();
    await until(async () => (await new AuditTree(stores.documents).head())?.position === head);
    await checkpointer.stop();

    const tree = new AuditTree(stores.documents);
    const signed = await sizes(stores);
    const ids = (await idsOf(stores)).slice(0, signed.at(-1));
    const random = seededRandom(42);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const inclusion = await timed(PROOFS, () => inclusionProof(tree, stores.events, pick(ids)));
    const pairs = signed.flatMap((from, i) => signed.slice(i + 1).map((to) => [from, to] as const));
    const consistency = await timed(PROOFS, (i) => consistencyProof(tree, ...pairs[i % pairs.length]!));
    await stores.close();
    const http = process.env.AUDIT_BENCH_HTTP === '1' ? await overHttp(dir, () => pick(ids)) : undefined;
    const figures = {
      events: signed.at(-1),
      checkpoints: signed,
      warm_up: WARM_UP,
      inclusion_ms: inclusion,
      consistency_ms: consistency,
      http_proof_ms: http,
      machine: machine(),
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
