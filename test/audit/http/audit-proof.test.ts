import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Response as AgentResponse } from 'superagent';
import { Checkpoint, CHECKPOINT_STREAM, CHECKPOINT_TYPE } from '../../../src/audit/proof/checkpoint';
import { leafHash } from '../../../src/audit/proof/merkle';
import { openNote, parseNote, parseVerifierKey } from '../../../src/audit/proof/note';
import { holdsConsistency, holdsInclusion } from '../../../src/audit/proof/paths';
import { parseTreeHead } from '../../../src/audit/proof/tree-head';
import { chainFieldsOfLine } from '../../../src/audit/proof/verify';
import { digestOf } from '../../../src/shared/domain/chain';
import { expectRefused, platform, Run } from '../../support/cli';
import { activePartner, Partner } from '../../support/credentials';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

// The CLI is run as an auditor would, offline, on files saved from the API.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

const API = '/api/v1';
const REASON = 'member groups are for staff tools only';

const dir = mkdtempSync(join(tmpdir(), 'audit-proof-'));
const files = mkdtempSync(join(tmpdir(), 'audit-proof-files-'));
let t: TestPlatform;
let auditor: request.Agent;
let partner: Partner;
let publicKey: string;
/** The export as the API streamed it, one parsed line each. */
let exported: Record<string, unknown>[];

type Line = Record<string, unknown> & { type?: string; stream?: string; data?: Record<string, unknown> };

async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A body read as text, whatever its content type. */
function textOf(res: AgentResponse, done: (err: Error | null, body: unknown) => void): void {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString()));
  res.on('end', () => done(null, text));
}

function exportText() {
  return auditor
    .get(`${API}/audit/events`)
    .query({ limit: 10_000 })
    .buffer(true)
    .parse(textOf)
    .expect(200);
}

/** Writes the lines as an export file and runs `platform audit verify` on it with the API's key. */
function verify(lines: Line[], name: string, key = publicKey): Promise<Run> {
  const file = join(files, `${name}.ndjson`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(files, 'key.pem'), key);
  return platform(dir, ['audit', 'verify', file, '--public-key', join(files, 'key.pem')]);
}

/** A refusal of the CLI: exit 1 and one line on stderr naming what does not hold. */
function expectBroken(run: Run, what: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(what);
}

const isRejection = (l: Line) => l.type === 'ScopeRejected';
const copy = (lines: Line[]): Line[] => JSON.parse(JSON.stringify(lines)) as Line[];

beforeAll(async () => {
  t = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
  partner = await activePartner(t, ['addons.read']);
  const { developer, member, admin, adminToken } = partner;
  await developer.post(`${API}/developer/scopes`).set('X-CSRF-Token', member.token).send({ scopes: ['member-groups.read'], reason: 'list groups' }).expect(200);
  await admin.post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`).set('X-CSRF-Token', adminToken).send({ reason: REASON }).expect(200);
  // A checkpoint over the rejection, and one more event after it, so the export holds both kinds.
  const rejection = (await t.allEvents()).find((e) => e.type === 'ScopeRejected')!;
  await eventually(async () => (await t.platform.stores.events.readStream(CHECKPOINT_STREAM)).find((c) => String(c.data.position) >= rejection.position), 'a checkpoint');
  auditor = t.client();
  await logInAdmin(auditor);
  publicKey = (await auditor.get(`${API}/audit/key`).expect(200)).body.data.public_key as string;
  exported = (await exportText()).body.trimEnd().split('\n').map((l: string) => JSON.parse(l) as Line);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

describe('the export verified offline with the key from GET /audit/key', () => {
  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip('verifies as exported: every chain link, the checkpoints and the signed head', async () => {
    expect(exported.filter(isRejection)).toHaveLength(1);
    const run = await verify(exported, 'as-exported');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^OK: \d+ events, \d+ chain links, [1-9]\d* checkpoints and 1 signed export heads hold; verified up to checkpoint \d+ \(position \d+, \d+ events\), signed at \S+\n$/);
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip("fails, naming the event, when the rejection's reason is changed", async () => {
    const inTheLine = copy(exported);
    inTheLine.find(isRejection)!.reason = 'no reason at all';
    expectBroken(await verify(inTheLine, 'reason-changed'), /line \d+: event ScopeRejected #\d+ of credential-\d+ at position \d+ does not match its digest/);
    const inTheData = copy(exported);
    inTheData.find(isRejection)!.data!.reason = 'no reason at all';
    expectBroken(await verify(inTheData, 'data-reason-changed'), /event ScopeRejected .* does not match its digest/);
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip('fails when the rejection is taken out, naming the checkpoint that covered it', async () => {
    const rejection = exported.find(isRejection)!;
    // The last event of its stream: no later link shows the gap, the checkpoint over it does.
    expect(exported.filter((l) => l.stream === rejection.stream && (l.revision as number) > (rejection.revision as number))).toEqual([]);
    const removed = exported.filter((l) => !isRejection(l));
    const at = removed.findIndex((l) => l.stream === CHECKPOINT_STREAM && (l.data as { position: string }).position >= String(rejection.position));
    const { number, count, position } = removed[at]!.data as { number: number; count: number; position: string };
    expectBroken(
      await verify(removed, 'rejection-removed'),
      new RegExp(`^platform: the export does not verify: line ${at + 1}: checkpoint ${number} signed ${count} events up to position ${position}, and the lines above it differ: an event up to it was changed, taken out or reordered\n$`),
    );
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip('fails when an event before the rejection in its stream is taken out, naming the rejection that no longer links', async () => {
    const rejection = exported.find(isRejection)!;
    const removed = exported.filter((l) => !(l.stream === rejection.stream && l.revision === (rejection.revision as number) - 1));
    const at = removed.indexOf(rejection);
    expectBroken(
      await verify(removed, 'request-removed'),
      new RegExp(
        `^platform: the export does not verify: line ${at + 1}: event ScopeRejected #${String(rejection.revision)} of ${String(rejection.stream)} at position ${String(rejection.position)} ` +
          `follows #${(rejection.revision as number) - 2} of its stream: an event between them was taken out, or the lines reordered\n$`,
      ),
    );
  });

  it('fails when two lines are swapped', async () => {
    const swapped = copy(exported);
    const at = swapped.findIndex(isRejection);
    [swapped[at - 1], swapped[at]] = [swapped[at]!, swapped[at - 1]!];
    expectBroken(await verify(swapped, 'swapped'), /reordered/);
  });

  it('fails when the last lines are cut off, the signed head with them', async () => {
    expectBroken(await verify(exported.slice(0, -3), 'cut'), /ends without its signed head/);
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts reads only legacy checkpoints.
  it.skip('fails on a checkpoint forged to cover other events, whose digest was made to fit', async () => {
    const forged = copy(exported);
    const checkpoint = forged.find((l) => l.stream === CHECKPOINT_STREAM)!;
    checkpoint.data!.root = 'f'.repeat(64);
    checkpoint.digest = digestOf(chainFieldsOfLine(checkpoint as unknown as Parameters<typeof chainFieldsOfLine>[0]));
    expectBroken(await verify(forged, 'forged-checkpoint'), /checkpoint 1 at position \d+ does not verify: it was changed or forged/);
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip("verifies with this installation's key when given none, and `platform audit key` prints the key GET /audit/key gives", async () => {
    const file = join(files, 'default-key.ndjson');
    writeFileSync(file, exported.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(await platform(dir, ['audit', 'verify', file])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: /) });
    expect(await platform(dir, ['audit', 'key'])).toEqual({ code: 0, stdout: publicKey, stderr: '' });
  });

  it('`platform audit key` creates no key where there is none, unless told to with --create', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'audit-proof-no-key-'));
    const file = join(empty, 'audit-signing-key.pem');
    expectRefused(await platform(empty, ['audit', 'key']), new RegExp(`^platform: no signing key at ${file}: .*create it with \`platform audit key --create\``));
    expect(existsSync(file)).toBe(false);
    const created = await platform(empty, ['audit', 'key', '--create']);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/), stderr: '' });
    expect(await platform(empty, ['audit', 'key'])).toEqual(created);
    rmSync(empty, { recursive: true, force: true });
  });

  // Waits for the verifier of the C2SP formats (branch audit-verifier): verify.ts still reads leaves over digests.
  it.skip('verifies an export taken in pages, one after the other, each with its signed head', async () => {
    const first = (await auditor.get(`${API}/audit/events`).query({ limit: 5 }).buffer(true).parse(textOf)).body as string;
    const next = (JSON.parse(first.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const rest = (await auditor.get(`${API}/audit/events`).query({ from: next, limit: 10_000 }).buffer(true).parse(textOf)).body as string;
    const lines = `${first}${rest}`.trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    expect((await verify(lines, 'pages')).stdout).toMatch(/ and 2 signed export heads hold; [^\n]*\(position \d+, \d+ events\), signed at \S+\n$/);
    // The first page alone verifies, and says the log goes on past it: its signed head says so.
    expect((await verify(lines.slice(0, 6), 'first-page')).stdout).toMatch(
      new RegExp(`^OK: 5 events, .* and 1 signed export heads hold; .*; the export is a page: the log goes on past position ${next}, beyond what it holds\n$`),
    );
    // The first page's head taken out: the second head does not cover the lines above it.
    expectBroken(await verify([...lines.slice(0, 5), ...lines.slice(6)], 'head-removed'), /the export's signed head covers \d+ events, and they are not the \d+ lines above it/);
  });

  it('fails against another key', async () => {
    const other = (await import('node:crypto')).generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expectBroken(await verify(exported, 'other-key', other), /does not verify: .*signed with another key/);
  });
});

const rootOf = (note: string) => parseTreeHead(parseNote(note).text).root;
const signedCheckpoints = async () => (await t.platform.stores.events.readStream(CHECKPOINT_STREAM)).filter((e) => e.type === CHECKPOINT_TYPE).map((e) => e.data as Checkpoint);

describe('GET /audit/key', () => {
  it('gives the key as PEM and as the C2SP verifier key that names the signatures of the checkpoints', async () => {
    const { data } = (await auditor.get(`${API}/audit/key`).expect(200)).body as { data: Record<string, unknown> & { keys: Record<string, unknown>[] } };
    const key = parseVerifierKey(data.verifier_key as string);
    expect(key.hash).toBe(data.key_hash);
    expect(key.publicKey.export({ type: 'spki', format: 'pem' })).toBe(data.public_key);
    expect(data.keys).toEqual([{ verifier_key: data.verifier_key, key_hash: data.key_hash, public_key: data.public_key, current: true }]);
    const [latest] = (await signedCheckpoints()).slice(-1);
    expect(openNote(latest!.note, [key]).signedBy).toEqual([key]);
  });
});

describe('GET /audit/checkpoint', () => {
  it('answers the latest signed note as text, byte for byte as signed, and an earlier one by its size', async () => {
    const res = await auditor.get(`${API}/audit/checkpoint`).buffer(true).parse(textOf).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const all = await signedCheckpoints();
    expect(res.body).toBe(all.at(-1)!.note);
    const first = await auditor.get(`${API}/audit/checkpoint`).query({ size: all[0]!.size }).buffer(true).parse(textOf).expect(200);
    expect(first.body).toBe(all[0]!.note);
  });

  it('refuses a size no checkpoint was signed at, and one that is not a number', async () => {
    const sizes = new Set((await signedCheckpoints()).map((c) => c.size));
    const unsigned = [...Array(1000).keys()].find((n) => n > 0 && !sizes.has(n))!;
    await expectRefusal(t, () => auditor.get(`${API}/audit/checkpoint`).query({ size: unsigned }), 404, 'checkpoint_not_found');
    await expectRefusal(t, () => auditor.get(`${API}/audit/checkpoint`).query({ size: 'ten' }), 422, 'validation_failed');
    await expectRefusal(t, () => auditor.get(`${API}/audit/checkpoint`).query({ size: '0' }), 422, 'validation_failed');
  });
});

describe('GET /audit/proof', () => {
  it("proves the rejection alone: its leaf holds the event's fields, and its path leads to the signed root", async () => {
    const rejection = exported.find(isRejection)!;
    const { data } = (await auditor.get(`${API}/audit/proof`).query({ event: rejection.id as string }).expect(200)).body as {
      data: { leaf_index: number; leaf: string; audit_path: string[]; checkpoint: string };
    };
    const leaf = Buffer.from(data.leaf, 'base64');
    expect(JSON.parse(leaf.toString('utf8'))).toMatchObject({ id: rejection.id, type: 'ScopeRejected', position: rejection.position, digest: rejection.digest });
    expect(data.checkpoint).toBe((await signedCheckpoints()).at(-1)!.note);
    const size = parseTreeHead(parseNote(data.checkpoint).text).size;
    const path = data.audit_path.map((h) => Buffer.from(h, 'base64'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(leaf), path, rootOf(data.checkpoint))).toBe(true);
    const changed = Buffer.from(leaf.toString('utf8').replace(REASON, 'no reason at all'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(changed), path, rootOf(data.checkpoint))).toBe(false);
  });

  it('proves it in an earlier checkpoint by its size', async () => {
    const rejection = exported.find(isRejection)!;
    const covering = (await signedCheckpoints()).find((c) => c.position >= String(rejection.position))!;
    const { data } = (await auditor.get(`${API}/audit/proof`).query({ event: rejection.id as string, size: covering.size }).expect(200)).body as {
      data: { leaf_index: number; leaf: string; audit_path: string[]; checkpoint: string };
    };
    expect(data.checkpoint).toBe(covering.note);
    const path = data.audit_path.map((h) => Buffer.from(h, 'base64'));
    expect(holdsInclusion(data.leaf_index, covering.size, leafHash(Buffer.from(data.leaf, 'base64')), path, rootOf(covering.note))).toBe(true);
  });

  it('answers 404 for an id no checkpoint covers or a size never signed, and 422 without an id', async () => {
    await expectRefusal(t, () => auditor.get(`${API}/audit/proof`).query({ event: 'no-such-event' }), 404, 'event_not_checkpointed');
    await expectRefusal(t, () => auditor.get(`${API}/audit/proof`).query({ event: exported[0]!.id as string, size: 999_999 }), 404, 'checkpoint_not_found');
    await expectRefusal(t, () => auditor.get(`${API}/audit/proof`), 422, 'validation_failed');
    await expectRefusal(t, () => auditor.get(`${API}/audit/proof`).query({ event: 'x', size: '-1' }), 422, 'validation_failed');
  });
});

describe('GET /audit/consistency', () => {
  it('proves the first checkpoint a prefix of the latest', async () => {
    const all = await signedCheckpoints();
    const [from, to] = [all[0]!, all.at(-1)!];
    const { data } = (await auditor.get(`${API}/audit/consistency`).query({ from: from.size, to: to.size }).expect(200)).body as {
      data: { proof: string[]; from_checkpoint: string; to_checkpoint: string };
    };
    expect([data.from_checkpoint, data.to_checkpoint]).toEqual([from.note, to.note]);
    const proof = data.proof.map((h) => Buffer.from(h, 'base64'));
    expect(holdsConsistency(from.size, to.size, rootOf(from.note), rootOf(to.note), proof)).toBe(true);
  });

  it('refuses sizes out of order, a size never signed, and missing sizes', async () => {
    const all = await signedCheckpoints();
    await expectRefusal(t, () => auditor.get(`${API}/audit/consistency`).query({ from: all.at(-1)!.size, to: all[0]!.size }), 422, 'sizes_out_of_order');
    await expectRefusal(t, () => auditor.get(`${API}/audit/consistency`).query({ from: 1, to: 999_999 }), 404, 'checkpoint_not_found');
    await expectRefusal(t, () => auditor.get(`${API}/audit/consistency`).query({ from: 1 }), 422, 'validation_failed');
  });
});

describe('the proof endpoints', () => {
  it('are for auditors only, as is the key', async () => {
    await expectRefusal(t, () => partner.developer.get(`${API}/audit/key`), 401, 'admin_not_logged_in');
    await expectRefusal(t, () => t.client().get(`${API}/audit/proof`).query({ event: 'x' }), 401, 'admin_not_logged_in');
    await expectRefusal(t, () => t.client().get(`${API}/audit/checkpoint`), 401, 'admin_not_logged_in');
    await expectRefusal(t, () => t.client().get(`${API}/audit/consistency`).query({ from: 1, to: 2 }), 401, 'admin_not_logged_in');
  });
});
