/**
 * A long signed export for measuring `platform audit verify` (docs/performance.md): N events of
 * 1000 members' credential streams, chained as commands chain them, a signed checkpoint note
 * every 1000 events, in pages of 10,000 lines each ending in its signed head, every line built by
 * the export's own functions. Writes the export and the public key beside it.
 *
 *   node -r ./test/support/load-ts.js bench/audit-export-fixture.ts <out.ndjson> [events]
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGISTRY } from '../src/compose';
import { auditEvent } from '../src/audit/event';
import { ExportHead, exportHeadLine, exportHeadText } from '../src/audit/export-head';
import { leafOf } from '../src/audit/proof/leaf';
import { MerkleFrontier } from '../src/audit/proof/merkle';
import { loadSigningKey } from '../src/audit/proof/signing-key';
import { treeHeadText } from '../src/audit/proof/tree-head';
import { chainFieldsOf, digestOf } from '../src/shared/domain/chain';
import { RecordedEvent } from '../src/stores/ports';

const ORIGIN = 'bench.example/audit';
const PAGE = 10_000;
const CHECKPOINT_EVERY = 1000;
const MEMBERS = 1000;

async function main(out: string, total: number): Promise<void> {
  const keyDir = mkdtempSync(join(tmpdir(), 'audit-bench-key-'));
  const key = loadSigningKey(join(keyDir, 'key.pem'), { create: true, origin: ORIGIN });
  // Held in memory from here: the private key is left nowhere on disk (only its public half, below).
  rmSync(keyDir, { recursive: true, force: true });
  writeFileSync(`${out}.key.pem`, key.publicKeyPem);
  const file = createWriteStream(out);
  const write = (text: string) =>
    file.write(text) ? Promise.resolve() : new Promise<void>((resolve) => file.once('drain', () => resolve()));
  const describe = (type: string, data: Record<string, unknown>) => REGISTRY.describe(type, data);
  const heads = new Map<string, { revision: number; digest: string | null }>();
  const log = MerkleFrontier.empty();
  let page = { tree: MerkleFrontier.empty(), bytes: createHash('sha256'), count: 0, from: '', next: '' };
  let position = 0;

  const append = async (
    stream: string,
    type: string,
    data: Record<string, unknown>,
    actor: { kind: 'member' | 'system'; id: number | string },
  ) => {
    const before = heads.get(stream);
    const metadata: Record<string, unknown> = {
      actor,
      request_id: `req-${position}`,
      time: new Date(Date.UTC(2026, 0, 1) + position * 1000).toISOString(),
      schema_version: 1,
      prev_digest: before?.digest ?? null,
    };
    const event: RecordedEvent = {
      id: `event-${position}`,
      stream,
      revision: before ? before.revision + 1 : 0,
      position: String(++position).padStart(20, '0'),
      type,
      data,
      metadata: metadata as unknown as RecordedEvent['metadata'],
    };
    metadata.digest = digestOf(chainFieldsOf(event));
    heads.set(stream, { revision: event.revision, digest: metadata.digest as string });
    const line = `${JSON.stringify(auditEvent(event, actor.kind === 'member' ? `member${actor.id}` : null, describe))}\n`;
    const leaf = leafOf(event);
    log.add(leaf);
    page.tree.add(leaf);
    page.bytes.update(line);
    page.count += 1;
    page.next = event.position;
    await write(line);
    if (page.count === PAGE) await endPage(position < total);
  };
  const endPage = async (more: boolean) => {
    const head: ExportHead = {
      origin: ORIGIN,
      from: page.from,
      next: page.next,
      count: page.count,
      more,
      root: page.tree.root(),
      lines: page.bytes.digest(),
      time: new Date().toISOString(),
    };
    await write(`${JSON.stringify(exportHeadLine(head, key.signNote(exportHeadText(head))))}\n`);
    page = { tree: MerkleFrontier.empty(), bytes: createHash('sha256'), count: 0, from: head.next, next: head.next };
  };

  for (let i = 0; position < total; i++) {
    const member = (i % MEMBERS) + 1;
    await append(
      `credential-${member}`,
      'ScopeRequested',
      { member_id: member, scope: 'addons.read', reason: `integration ${i}` },
      { kind: 'member', id: member },
    );
    if (position % CHECKPOINT_EVERY === 0 && position < total) {
      const note = key.signNote(
        treeHeadText({ origin: ORIGIN, size: log.count, root: log.root(), time: new Date().toISOString() }),
      );
      await append(
        'audit-checkpoints',
        'AuditCheckpointSigned',
        { note, size: log.count, position: String(position).padStart(20, '0') },
        { kind: 'system', id: 'audit-checkpoints' },
      );
    }
  }
  if (page.count > 0) await endPage(false);
  await new Promise<void>((resolve) => file.end(() => resolve()));
}

const [out, total = '1000000'] = process.argv.slice(2);
if (!out) throw new Error('usage: bench/audit-export-fixture.ts <out.ndjson> [events]');
main(out, Number(total)).catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
