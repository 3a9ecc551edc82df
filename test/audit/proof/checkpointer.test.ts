import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Checkpoint, checkpointPayload, CHECKPOINT_STREAM } from '../../../src/audit/proof/checkpoint';
import { AuditCheckpointer } from '../../../src/audit/proof/checkpointer';
import { leafOf } from '../../../src/audit/proof/leaf';
import { MerkleFrontier } from '../../../src/audit/proof/merkle';
import { holdsSignature, loadSigningKey } from '../../../src/audit/proof/signing-key';
import { appendDecided, streamEnd } from '../../../src/shared/commands/context';
import { RecordedEvent, START, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'audit-checkpointer-'));
const key = loadSigningKey(join(dir, 'key.pem'), { create: true, origin: 'test.example/audit' });
let stores: Stores;
beforeAll(() => {
  stores = openSqliteStores(dir);
});
afterAll(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ actor: { kind: 'system' as const, id: 'test' }, requestId: `req-${Math.random()}`, now: new Date() });
const appendTo = async (stream: string, count: number) => {
  for (let i = 0; i < count; i++) {
    const [last] = await stores.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    await appendDecided(stores.events, stream, [{ type: 'PlatformSeeded', data: {} }], ctx(), streamEnd(last));
  }
};
const checkpoints = async () => (await stores.events.readStream(CHECKPOINT_STREAM)).map((e) => e.data as Checkpoint);

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200 && !(await check()); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The root of the first `count` events of the log, recomputed from the events themselves. */
async function rootOfLog(count: number): Promise<string> {
  const tree = MerkleFrontier.empty();
  const log: RecordedEvent[] = await stores.events.readAll(START, count);
  for (const event of log) tree.add(leafOf(event));
  return tree.root().toString('hex');
}

describe('the audit checkpointer', () => {
  it('signs the root of the whole log while events arrive, and resumes after a restart from its last checkpoint', async () => {
    const first = new AuditCheckpointer(stores.events, key, 100, pino({ level: 'silent' }));
    await first.start();
    await appendTo('a-1', 3);
    await until(async () => (await checkpoints()).some((c) => c.count >= 3));
    await first.stop();
    const before = (await checkpoints()).length;

    await appendTo('a-2', 4);
    const second = new AuditCheckpointer(stores.events, key, 100, pino({ level: 'silent' }));
    await second.start();
    const head = await stores.events.headPosition();
    await until(async () => (await checkpoints()).some((c) => c.position >= head));
    await second.stop();

    const all = await checkpoints();
    expect(all.length).toBeGreaterThan(before);
    expect(all.map((c) => c.number)).toEqual(all.map((_, i) => i + 1));
    for (const checkpoint of all) {
      expect(holdsSignature(key.publicKeyPem, checkpointPayload(checkpoint), checkpoint.signature)).toBe(true);
      expect(checkpoint.root).toBe(await rootOfLog(checkpoint.count));
    }
    // Each checkpoint is chained to the one before it, as every command's event is to its stream.
    const stream = await stores.events.readStream(CHECKPOINT_STREAM);
    stream.forEach((e, i) => expect(e.metadata.prev_digest).toBe(i === 0 ? null : stream[i - 1]!.metadata.digest));
  });

  it('appends nothing while only its own checkpoints arrive', async () => {
    const quiet = new AuditCheckpointer(stores.events, key, 50, pino({ level: 'silent' }));
    await quiet.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const count = (await checkpoints()).length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    await quiet.stop();
    expect((await checkpoints()).length).toBe(count);
  });
});
