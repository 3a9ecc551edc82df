import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { checkpointPayload, CHECKPOINT_STREAM, LEGACY_CHECKPOINT_TYPE } from '../../../src/audit/proof/checkpoint';
import { AuditCheckpointer } from '../../../src/audit/proof/checkpointer';
import { KeyFiles } from '../../../src/audit/proof/key-ring';
import { leafOf } from '../../../src/audit/proof/leaf';
import { MerkleFrontier, treeRoot } from '../../../src/audit/proof/merkle';
import { openNote } from '../../../src/audit/proof/note';
import { loadSigningKey } from '../../../src/audit/proof/signing-key';
import { parseTreeHead } from '../../../src/audit/proof/tree-head';
import { START, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { eventually } from '../../support/eventually';
import { appendTo, signedCheckpoints } from '../support/checkpoints';

const ORIGIN = 'test.example/audit';
const dirs: string[] = [];
const opened: Stores[] = [];

function fresh(): { stores: Stores; keys: KeyFiles } {
  const dir = mkdtempSync(join(tmpdir(), 'audit-checkpointer-'));
  dirs.push(dir);
  const stores = openSqliteStores(dir);
  opened.push(stores);
  return { stores, keys: { file: join(dir, 'key.pem'), origin: ORIGIN, create: true } };
}
afterAll(async () => {
  for (const stores of opened) await stores.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const checkpointer = (stores: Stores, keys: KeyFiles, intervalMs = 100) =>
  new AuditCheckpointer(stores.events, stores.documents, keys, intervalMs, pino({ level: 'silent' }));

/** MTH of the first `size` events of the log, from the events themselves. */
const rootOfLog = async (stores: Stores, size: number) =>
  treeRoot((await stores.events.readAll(START, size)).map(leafOf));

describe('the audit checkpointer', () => {
  it('signs C2SP checkpoint notes over the whole log while events arrive, and resumes after a restart', async () => {
    const { stores, keys } = fresh();
    const first = checkpointer(stores, keys);
    await first.start();
    await appendTo(stores.events, 'a-1', 3);
    await eventually(async () => (await signedCheckpoints(stores.events)).some((c) => c.size >= 3), { within: 10_000 });
    await first.stop();
    const before = (await signedCheckpoints(stores.events)).length;

    await appendTo(stores.events, 'a-2', 4);
    const second = checkpointer(stores, keys);
    await second.start();
    const head = await stores.events.headPosition();
    await eventually(async () => (await signedCheckpoints(stores.events)).some((c) => c.position >= head), {
      within: 10_000,
    });
    await second.stop();

    const key = loadSigningKey(keys.file, { create: false, origin: ORIGIN });
    const all = await signedCheckpoints(stores.events);
    expect(all.length).toBeGreaterThan(before);
    for (const checkpoint of all) {
      const { text, signedBy } = openNote(checkpoint.note, [key.noteKey]);
      expect(signedBy).toEqual([key.noteKey]);
      const body = parseTreeHead(text);
      expect(body).toMatchObject({ origin: ORIGIN, size: checkpoint.size });
      expect(text).toBe(`${ORIGIN}\n${checkpoint.size}\n${body.root.toString('base64')}\ntime ${body.time}\n`);
      expect(body.root.equals(await rootOfLog(stores, checkpoint.size))).toBe(true);
      expect((await stores.events.readAll(START, checkpoint.size)).at(-1)!.position).toBe(checkpoint.position);
      // The frontier resumes the tree it signed.
      expect(MerkleFrontier.from(checkpoint.frontier, checkpoint.size).root().equals(body.root)).toBe(true);
    }
    // Each checkpoint is chained to the one before it, as every command's event is to its stream.
    const stream = await stores.events.readStream(CHECKPOINT_STREAM);
    stream.forEach((e, i) => expect(e.metadata.prev_digest).toBe(i === 0 ? null : stream[i - 1]!.metadata.digest));
  });

  it('appends nothing while only its own checkpoints arrive', async () => {
    const { stores, keys } = fresh();
    await appendTo(stores.events, 'a-1', 2);
    const quiet = checkpointer(stores, keys, 50);
    await quiet.start();
    await eventually(async () => (await signedCheckpoints(stores.events)).length > 0, { within: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const count = (await signedCheckpoints(stores.events)).length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    await quiet.stop();
    expect(count).toBe(1);
    expect((await signedCheckpoints(stores.events)).length).toBe(count);
  });

  it('after a legacy checkpoint, signs the tree of the new leaves over the whole log, from its start', async () => {
    const { stores, keys } = fresh();
    const key = loadSigningKey(keys.file, { create: true, origin: ORIGIN });
    await appendTo(stores.events, 'a-1', 3);
    const covered = {
      number: 1,
      position: await stores.events.headPosition(),
      count: 3,
      root: 'a'.repeat(64),
      signed_at: new Date().toISOString(),
    };
    await appendTo(stores.events, CHECKPOINT_STREAM, 1, LEGACY_CHECKPOINT_TYPE, {
      ...covered,
      signature: key.sign(checkpointPayload(covered)),
      frontier: ['a'.repeat(64), 'b'.repeat(64)],
    });
    await appendTo(stores.events, 'a-1', 1);

    const resumed = checkpointer(stores, keys);
    await resumed.start();
    await eventually(async () => (await signedCheckpoints(stores.events)).length > 0, { within: 10_000 });
    await resumed.stop();

    const [checkpoint] = await signedCheckpoints(stores.events);
    expect(checkpoint!.size).toBe(5);
    expect(parseTreeHead(openNote(checkpoint!.note, [key.noteKey]).text).root.equals(await rootOfLog(stores, 5))).toBe(
      true,
    );
    // Chained after the legacy checkpoint in the one stream.
    const [legacy, next] = await stores.events.readStream(CHECKPOINT_STREAM);
    expect(next!.metadata.prev_digest).toBe(legacy!.metadata.digest);
  });
});
