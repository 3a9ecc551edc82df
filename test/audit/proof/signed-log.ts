import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorNames } from '../../../src/audit/actor-names';
import { auditExport } from '../../../src/audit/export';
import { leafBytes, leafFieldsOf, leafOf } from '../../../src/audit/proof/leaf';
import { treeRoot } from '../../../src/audit/proof/merkle';
import { consistencyRanges, inclusionRanges } from '../../../src/audit/proof/paths';
import { loadSigningKey, SigningKey } from '../../../src/audit/proof/signing-key';
import { treeHeadText } from '../../../src/audit/proof/tree-head';
import { appendDecided, streamEnd } from '../../../src/shared/commands/context';
import { RecordedEvent, START, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import type { Run } from '../../support/cli';
import { REGISTRY } from '../../support/registry';
import { platformInProcess } from '../../support/cli-in-process';

/**
 * A log as the checkpointer of the signed-note round writes it (AuditCheckpointSigned events
 * holding a C2SP checkpoint note, AuditSigningKeyRotated naming the old and new verifier keys),
 * built with the core's functions, and exported with the service's own export.
 */

export const ORIGIN = 'api.example.com/audit';

export const signingKey = (origin: string): SigningKey =>
  loadSigningKey(join(mkdtempSync(join(tmpdir(), 'audit-key-')), 'key.pem'), { create: true, origin });

/** The note signed by every key given, one signature line each. */
export function signedByAll(text: string, keys: readonly SigningKey[]): string {
  return keys.map((key, i) => (i === 0 ? key.signNote(text) : key.signNote(text).slice(text.length + 1))).join('');
}

const metadata = (requestId: string) => ({
  actor: { kind: 'system' as const, id: 'audit-checkpoints' },
  request_id: requestId,
  time: new Date().toISOString(),
});

export class SignedLog {
  readonly stores: Stores;
  private streams = 0;

  constructor(readonly origin: string) {
    this.stores = openSqliteStores(mkdtempSync(join(tmpdir(), 'signed-log-')));
  }

  /** `count` events, each the first of a stream of its own, chained as commands append them. */
  async record(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const ctx = { actor: { kind: 'system' as const, id: 'test' }, requestId: `req-${this.streams}`, now: new Date() };
      await appendDecided(
        this.stores.events,
        `test-${this.streams++}`,
        [{ type: 'PlatformSeeded', data: {} }],
        ctx,
        streamEnd(undefined),
      );
    }
  }

  async all(): Promise<RecordedEvent[]> {
    return this.stores.events.readAll(START, 1_000_000);
  }

  /** The checkpoint note over the whole log so far, signed by these keys. */
  async note(keys: readonly SigningKey[], size?: number): Promise<string> {
    const leaves = (await this.all()).map(leafOf).slice(0, size);
    return signedByAll(
      treeHeadText({
        origin: this.origin,
        size: leaves.length,
        root: treeRoot(leaves),
        time: new Date().toISOString(),
      }),
      keys,
    );
  }

  /** Appends a checkpoint over the whole log so far. */
  async checkpoint(keys: readonly SigningKey[]): Promise<void> {
    const events = await this.all();
    const data = { note: await this.note(keys), size: events.length, position: events.at(-1)!.position, frontier: [] };
    await this.stores.events.append(
      'audit-checkpoints',
      [{ type: 'AuditCheckpointSigned', data, metadata: metadata(`checkpoint-${events.length}`) }],
      'any',
    );
  }

  async rotate(old: SigningKey, next: SigningKey): Promise<void> {
    const data = { previous: old.noteKey.verifierKey, next: next.noteKey.verifierKey };
    await this.stores.events.append(
      'audit-signing-keys',
      [{ type: 'AuditSigningKeyRotated', data, metadata: metadata(`rotation-${next.noteKey.hash}`) }],
      'any',
    );
  }

  /** The export's text, as GET /audit/events sends it. */
  async exportText(key: SigningKey, from = START, limit = 10_000): Promise<string> {
    const names = new ActorNames({ member: async () => null, admin: async () => null });
    let text = '';
    for await (const line of await auditExport(
      this.stores.events,
      names,
      (type, data) => REGISTRY.describe(type, data),
      from,
      limit,
      key,
    ))
      text += line;
    return text;
  }

  /** GET /audit/consistency's answer from the tree of `from` events to the tree of `to`. */
  async consistency(from: number, to: number, toCheckpoint: string | null): Promise<unknown> {
    const leaves = (await this.all()).map(leafOf);
    const proof = consistencyRanges(from, to).map(([lo, hi]) => treeRoot(leaves.slice(lo, hi)).toString('base64'));
    return { code: 200, message: 'ok', data: { proof, from_checkpoint: null, to_checkpoint: toCheckpoint } };
  }

  /** GET /audit/proof's answer for the event at `index`, against a checkpoint over the whole log. */
  async proof(
    index: number,
    keys: readonly SigningKey[],
  ): Promise<{ data: { leaf_index: number; leaf: string; audit_path: string[]; checkpoint: string } }> {
    const events = await this.all();
    const leaves = events.map(leafOf);
    const audit_path = inclusionRanges(index, leaves.length).map(([lo, hi]) =>
      treeRoot(leaves.slice(lo, hi)).toString('base64'),
    );
    return {
      data: {
        leaf_index: index,
        leaf: leafBytes(leafFieldsOf(events[index]!)).toString('base64'),
        audit_path,
        checkpoint: await this.note(keys),
      },
    };
  }
}

export function saved(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * What a suite of signed logs works with: a fresh log per call, each closed after the file's tests,
 * and the folder where the auditor saves exports, answers and keys.
 */
export function signedLogs(): { logOf(origin?: string): SignedLog; files: string } {
  const files = mkdtempSync(join(tmpdir(), 'signed-checkpoints-'));
  const logs: SignedLog[] = [];
  afterAll(async () => {
    for (const log of logs) await log.stores.close();
    rmSync(files, { recursive: true, force: true });
  });
  const logOf = (origin = ORIGIN) => {
    const log = new SignedLog(origin);
    logs.push(log);
    return log;
  };
  return { logOf, files };
}

let saves = 0;

/** `platform audit verify` on the text saved in `dir`, trusting the keys given, each saved as a file. */
export function verifyExport(dir: string, text: string, keys: string[], ...more: string[]): Promise<Run> {
  const run = ++saves;
  const file = saved(dir, `export-${run}.ndjson`, text);
  const keyFiles = keys.map((key, i) => saved(dir, `key-${run}-${i}`, key));
  return platformInProcess(dir, ['audit', 'verify', file, ...keyFiles.flatMap((k) => ['--public-key', k]), ...more]);
}

/** `platform audit verify-proof` on the answer saved in `dir`, trusting the key in `keyFile`. */
export function verifyProof(dir: string, answer: unknown, keyFile: string): Promise<Run> {
  const file = saved(dir, `proof-${++saves}.json`, JSON.stringify(answer));
  return platformInProcess(dir, ['audit', 'verify-proof', file, '--public-key', keyFile]);
}
