/**
 * docs/audit.md, "The encoding, for a verifier of your own": its worked example (leaf bytes, leaf
 * hashes, the root of a three-leaf tree) and its note texts, recomputed from the code, and the
 * example's root recomputed by the page's own Python sketch.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExportHead } from '../../src/audit/export-head';
import { chainFieldsOfLeaf } from '../../src/audit/proof/export-line';
import { LeafFields, leafBytes, leafFieldsOf } from '../../src/audit/proof/leaf';
import { leafHash, nodeHash, treeRoot } from '../../src/audit/proof/merkle';
import { parseTreeHead } from '../../src/audit/proof/tree-head';
import { digestOf } from '../../src/shared/domain/chain';

const doc = readFileSync(join(__dirname, '../../docs/audit.md'), 'utf8');
const section = doc.slice(
  doc.indexOf('### The encoding, for a verifier of your own'),
  doc.indexOf('### One event alone'),
);
/** The fenced blocks of the section, in order, by language. */
const blocks = (language: string) =>
  [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const example = blocks('text').find((block) => block.startsWith('leaf 0 bytes: '))!;
const value = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(example)![1]!;

const leaves = [0, 1, 2].map((i) => ({ bytes: value(`leaf ${i} bytes`), hash: value(`leaf ${i} hash`) }));

/** The stored event a leaf's fields come from, as the store holds it. */
const storedEvent = (f: LeafFields) => ({
  id: f.id!,
  stream: f.stream,
  revision: f.revision,
  position: f.position,
  type: f.type,
  data: f.data as Record<string, unknown>,
  metadata: {
    actor: f.actor,
    request_id: f.request_id,
    time: f.time,
    schema_version: f.schema_version,
    digest: f.digest,
    prev_digest: f.prev_digest,
    ...(f.reason === null ? {} : { reason: f.reason }),
  } as never,
});

describe("docs/audit.md's worked example", () => {
  it('gives the leaf bytes the code writes for each event, and each digest the chain computes', () => {
    for (const leaf of leaves) {
      const fields = JSON.parse(leaf.bytes) as LeafFields;
      expect(leafBytes(leafFieldsOf(storedEvent(fields))).toString('utf8')).toBe(leaf.bytes);
      expect(digestOf(chainFieldsOfLeaf(fields))).toBe(fields.digest);
    }
    expect(Buffer.from(leaves[0]!.bytes, 'utf8').toString('hex')).toBe(value('leaf 0 bytes in hex'));
    expect((JSON.parse(leaves[2]!.bytes) as LeafFields).prev_digest).toBe(
      (JSON.parse(leaves[1]!.bytes) as LeafFields).digest,
    );
  });

  it('gives the leaf hashes, the node and the root of the three leaves the code computes', () => {
    const hashes = leaves.map((leaf) => leafHash(Buffer.from(leaf.bytes, 'utf8')));
    expect(hashes.map((h) => h.toString('hex'))).toEqual(leaves.map((leaf) => leaf.hash));
    expect(nodeHash(hashes[0]!, hashes[1]!).toString('hex')).toBe(value('node of leaves 0 and 1'));
    const root = treeRoot(hashes);
    expect(root.toString('hex')).toBe(value('root of the 3 leaves'));
    expect(section).toContain(`In a checkpoint's note the same root reads in\nbase64: \`${root.toString('base64')}\``);
  });

  it("writes note texts the code reads: a checkpoint's and an export head's", () => {
    const [checkpoint, head] = blocks('text').filter((block) => block !== example);
    expect(parseTreeHead(checkpoint!)).toMatchObject({
      origin: 'api.example.com/audit',
      size: 1190,
      time: '2026-11-27T21:30:00.000Z',
    });
    expect(parseExportHead(head!)).toMatchObject({
      origin: 'api.example.com/audit',
      from: '',
      next: '00000000000000001204',
      count: 1204,
      more: false,
    });
  });

  const python = spawnSync('python3', ['--version']);
  (python.error ? it.skip : it)("recomputes the example's root with the page's Python sketch", () => {
    const sketch = blocks('python')[0]!;
    const run = spawnSync(
      'python3',
      ['-c', `${sketch}\nprint(root([leaf_hash(json.loads(line)) for line in sys.stdin.read().splitlines()]).hex())`],
      {
        input: leaves.map((leaf) => leaf.bytes).join('\n'),
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(value('root of the 3 leaves'));
  });
});
