import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Checkpoint, CHECKPOINT_STREAM, CHECKPOINT_TYPE } from '../../../src/audit/proof/checkpoint';
import { AuditCheckpointer } from '../../../src/audit/proof/checkpointer';
import { leafOf } from '../../../src/audit/proof/leaf';
import { leafHash, treeRoot } from '../../../src/audit/proof/merkle';
import { parseNote } from '../../../src/audit/proof/note';
import { holdsConsistency, holdsInclusion } from '../../../src/audit/proof/paths';
import { checkpointOf, consistencyProof, inclusionProof, NoProof } from '../../../src/audit/proof/proofs';
import { parseTreeHead } from '../../../src/audit/proof/tree-head';
import { AuditTree } from '../../../src/audit/proof/tree-store';
import { toNewEvents } from '../../../src/shared/commands/context';
import { RecordedEvent, START, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';

// More events than a tile holds (256), over several checkpoints: the proofs read nodes of every level.
const EVENTS = 700;
const dir = mkdtempSync(join(tmpdir(), 'audit-proofs-'));
let stores: Stores;
let tree: AuditTree;
let log: RecordedEvent[];
let sizes: number[];

const ctx = () => ({
  actor: { kind: 'system' as const, id: 'test' },
  requestId: `req-${Math.random()}`,
  now: new Date(),
});
const rootOf = (note: string) => parseTreeHead(parseNote(note).text).root;

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 400 && !(await check()); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  stores = openSqliteStores(dir);
  tree = new AuditTree(stores.documents);
  const started = async () => {
    const checkpointer = new AuditCheckpointer(
      stores.events,
      stores.documents,
      { file: join(dir, 'key.pem'), origin: 'test.example/audit', create: true },
      50,
      pino({ level: 'silent' }),
    );
    await checkpointer.start();
    return checkpointer;
  };
  let checkpointer = await started();
  for (let i = 0; i < EVENTS; i += 50) {
    const batch = Array.from({ length: 50 }, (_, n) => ({ type: 'PlatformSeeded', data: { n: i + n } }));
    await stores.events.append(
      `s-${i}`,
      toNewEvents(batch, ctx(), `s-${i}`, { expected: 'no_stream', digest: null }),
      'no_stream',
    );
    if (i % 200 === 0)
      await until(async () =>
        (await stores.events.readStream(CHECKPOINT_STREAM)).some((c) => (c.data as Checkpoint).size > i),
      );
    // A restart midway: the next one goes on from the tiles the first left half full.
    if (i === 300) {
      await checkpointer.stop();
      checkpointer = await started();
    }
  }
  const head = await stores.events.headPosition();
  await until(async () =>
    (await stores.events.readStream(CHECKPOINT_STREAM)).some((c) => (c.data as Checkpoint).position === head),
  );
  // Its own last checkpoint read into the tree, then stopped.
  await until(async () => (await tree.head())?.position === (await stores.events.headPosition()));
  await checkpointer.stop();
  log = await stores.events.readAll(START, 10_000);
  sizes = (await stores.events.readStream(CHECKPOINT_STREAM))
    .filter((e) => e.type === CHECKPOINT_TYPE)
    .map((e) => (e.data as Checkpoint).size);
});
afterAll(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('proofs from the stored tree', () => {
  it('prove each event in every checkpoint that covers it, with the leaf of its own fields', async () => {
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    for (const size of sizes) {
      for (const index of [0, 1, 255, 256, 511, 512, size - 1].filter((i) => i < size)) {
        const event = log[index]!;
        const proof = await inclusionProof(tree, stores.events, event.id!, size);
        expect(proof.leaf_index).toBe(index);
        expect(leafHash(proof.leaf).equals(leafOf(event))).toBe(true);
        expect(holdsInclusion(index, size, leafHash(proof.leaf), proof.audit_path, rootOf(proof.checkpoint))).toBe(
          true,
        );
      }
    }
  });

  it('prove each checkpoint a prefix of every later one', async () => {
    for (const [i, from] of sizes.entries()) {
      for (const to of sizes.slice(i)) {
        const proof = await consistencyProof(tree, from, to);
        expect(
          holdsConsistency(from, to, rootOf(proof.from_checkpoint!), rootOf(proof.to_checkpoint), proof.proof),
        ).toBe(true);
      }
    }
  });

  it('prove any smaller tree a prefix of a checkpoint, with no note for a size never signed', async () => {
    const to = sizes.at(-1)!;
    const from = [...Array(to).keys()].find((n) => n > 0 && !sizes.includes(n))!;
    const proof = await consistencyProof(tree, from, to);
    expect(proof.from_checkpoint).toBeNull();
    const leaves = log.slice(0, from).map(leafOf);
    expect(holdsConsistency(from, to, treeRoot(leaves), rootOf(proof.to_checkpoint), proof.proof)).toBe(true);
    await expect(consistencyProof(tree, 1, to + 1)).rejects.toMatchObject({ reason: 'checkpoint_not_found' });
  });

  it('answer the latest checkpoint when no size is given, and say why when there is no proof', async () => {
    expect((await checkpointOf(tree)).size).toBe(sizes.at(-1));
    const latest = log[log.length - 1]!;
    await expect(inclusionProof(tree, stores.events, latest.id!, sizes[0])).rejects.toMatchObject({
      reason: 'event_not_checkpointed',
    });
    await expect(inclusionProof(tree, stores.events, 'no-such-id')).rejects.toMatchObject({
      reason: 'event_not_checkpointed',
    });
    await expect(checkpointOf(tree, sizes[0]! + 1)).rejects.toBeInstanceOf(NoProof);
    await expect(consistencyProof(tree, sizes[1]!, sizes[0]!)).rejects.toMatchObject({ reason: 'sizes_out_of_order' });
    const emptyDir = mkdtempSync(join(tmpdir(), 'audit-empty-'));
    const empty = openSqliteStores(emptyDir);
    await expect(checkpointOf(new AuditTree(empty.documents))).rejects.toMatchObject({ reason: 'no_checkpoint_yet' });
    await empty.close();
    rmSync(emptyDir, { recursive: true, force: true });
  });
});
