import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeRealisticLog } from '../../../bench/realistic-log';
import { PROJECTIONS } from '../../../src/compose';
import { Position, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { eventually } from '../../support/eventually';
import { folded, snapshot, streamCounter } from './lifecycle-support';

const ROOT = resolve(__dirname, '../../..');
const EVENTS = 30_000;
// Inside the runner's third batch of 500 events: two batches are stored, 250 events are in memory.
const PAUSE_AT = String(1250).padStart(20, '0');
const ALL = [...PROJECTIONS, streamCounter];

function startChild(dataDir: string, pauseAt?: Position): ChildProcess {
  return spawn(process.execPath, ['-r', join(ROOT, 'test/support/load-ts.js'), join(__dirname, 'kill-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...(pauseAt ? { PAUSE_AT: pauseAt } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) =>
    child.exitCode !== null ? done(child.exitCode) : child.once('exit', (code) => done(code)),
  );
}

function said(child: ChildProcess, line: string): Promise<void> {
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes(line)) done();
    });
    child.once('exit', (code) => fail(new Error(`the runner exited with ${code} before saying "${line}"`)));
  });
}

async function killed(child: ChildProcess): Promise<void> {
  const exit = exited(child);
  child.kill('SIGKILL');
  await exit;
}

/** The lowest stored checkpoint: every projection has stored everything up to it. */
async function stored(stores: Stores): Promise<Position> {
  const checkpoints = await Promise.all(ALL.map((p) => stores.documents.checkpoint(p.name)));
  return checkpoints.reduce((a, b) => (a < b ? a : b));
}

describe('the projection runner killed in the middle of a batch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kill-mid-batch-'));
  let stores: Stores;
  let head: Position;
  beforeAll(async () => {
    await writeRealisticLog(dir, EVENTS);
    stores = openSqliteStores(dir);
    head = await stores.events.headPosition();
  });
  afterAll(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts from its stored checkpoints: no event is applied twice, none is lost', async () => {
    const frozen = startChild(dir, PAUSE_AT);
    await said(frozen, 'paused');
    await killed(frozen);
    // Killed mid-batch: whole batches before the frozen one are stored, nothing of the frozen one.
    const atKill = await stores.documents.checkpoint(streamCounter.name);
    expect(atKill > '').toBe(true);
    expect(atKill < PAUSE_AT).toBe(true);

    // More kills at arbitrary moments while it works, some of them while a batch is being written.
    for (const delay of [0, 7, 23]) {
      const child = startChild(dir);
      const before = await stored(stores);
      for (let now = before; now === before && now < head; now = await stored(stores)) await sleep(5);
      await sleep(delay);
      await killed(child);
    }
    expect(await stored(stores)).not.toBe(head);

    const last = startChild(dir);
    await eventually(async () => (await stored(stores)) >= head, {
      within: 30_000,
      every: 50,
      what: 'the last projector at the head',
    });
    const exit = exited(last);
    last.kill('SIGTERM');
    expect(await exit).toBe(0);

    expect(await snapshot(stores.documents, ALL)).toEqual(await folded(stores.events, ALL));
  }, 60_000);
});
