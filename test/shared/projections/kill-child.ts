/**
 * The projection runner in a process of its own, on DATA_DIR, for kill-mid-batch.test.ts: every
 * projection of the service and the stream counter. With PAUSE_AT=<position> it freezes, without
 * yielding, while applying that event, after saying "paused" on stdout, so that the test can
 * SIGKILL it in the middle of a batch. SIGTERM stops it cleanly.
 */
import { writeSync } from 'node:fs';
import pino from 'pino';
import { PROJECTIONS } from '../../../src/compose';
import { Projection } from '../../../src/shared/projections/projection';
import { ProjectionRunner } from '../../../src/shared/projections/runner';
import { CLOSE_LIMIT_MS, stopOnSignals } from '../../../src/shutdown';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { streamCounter } from './lifecycle-support';

const FROZEN_MS = 60_000;

const pausing: Projection<{ count: number; revisions: number[] }> = {
  ...streamCounter,
  evolve(doc, event) {
    if (event.position === process.env.PAUSE_AT) {
      writeSync(1, 'paused\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FROZEN_MS);
    }
    return streamCounter.evolve(doc, event);
  },
};

async function main(): Promise<void> {
  const log = pino({ level: 'warn' });
  const stores = openSqliteStores(process.env.DATA_DIR!);
  const runner = new ProjectionRunner(stores.events, stores.documents, [...PROJECTIONS, pausing], log);
  await runner.start();
  stopOnSignals(
    log,
    async () => {
      await runner.stop();
      await stores.close();
    },
    CLOSE_LIMIT_MS,
  );
}

void main();
