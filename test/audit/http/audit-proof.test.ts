import { generateKeyPairSync } from 'node:crypto';
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
/** The export as the API streamed it, and one parsed line each. */
let exportedText: string;
let exported: Line[];

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
  return auditor.get(`${API}/audit/events`).query({ limit: 10_000 }).buffer(true).parse(textOf).expect(200);
}

/** Writes the text as an export file and runs `platform audit verify` on it with the API's key. */
function verifyText(text: string, name: string, key = publicKey): Promise<Run> {
  const file = join(files, `${name}.ndjson`);
  writeFileSync(file, text);
  writeFileSync(join(files, `${name}.key`), key);
  return platform(dir, ['audit', 'verify', file, '--public-key', join(files, `${name}.key`)]);
}

/** The lines, each as JSON.stringify writes it (the export's own bytes), as an export file, verified. */
const verify = (lines: Line[], name: string, key = publicKey): Promise<Run> =>
  verifyText(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), name, key);

/** A refusal of the CLI: exit 1 and one line on stderr naming what does not hold. */
function expectBroken(run: Run, line: number, what: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(new RegExp(`^platform: the export does not verify: line ${line}: `));
  expect(run.stderr).toMatch(what);
}

const isRejection = (l: Line) => l.type === 'ScopeRejected';
const copy = (lines: Line[]): Line[] => JSON.parse(JSON.stringify(lines)) as Line[];

beforeAll(async () => {
  t = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
  partner = await activePartner(t, ['addons.read']);
  const { developer, member, admin, adminToken } = partner;
  await developer
    .post(`${API}/developer/scopes`)
    .set('X-CSRF-Token', member.token)
    .send({ scopes: ['member-groups.read'], reason: 'list groups' })
    .expect(200);
  await admin
    .post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`)
    .set('X-CSRF-Token', adminToken)
    .send({ reason: REASON })
    .expect(200);
  // A checkpoint over the rejection, and one more event after it, so the export holds both kinds.
  const rejection = (await t.allEvents()).find((e) => e.type === 'ScopeRejected')!;
  await eventually(
    async () =>
      (await t.platform.stores.events.readStream(CHECKPOINT_STREAM)).find(
        (c) => String(c.data.position) >= rejection.position,
      ),
    'a checkpoint',
  );
  auditor = t.client();
  await logInAdmin(auditor);
  publicKey = (await auditor.get(`${API}/audit/key`).expect(200)).body.data.public_key as string;
  exportedText = (await exportText()).body as string;
  exported = exportedText
    .trimEnd()
    .split('\n')
    .map((l: string) => JSON.parse(l) as Line);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

const lineOf = (lines: Line[], line: Line) => lines.indexOf(line) + 1;
const HEAD = () => exported.length;

describe('the export verified offline with the key from GET /audit/key', () => {
  it('verifies as exported, saying up to which checkpoint and when it was signed', async () => {
    expect(exported.filter(isRejection)).toHaveLength(1);
    const run = await verifyText(exportedText, 'as-exported');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^OK: \d+ events, \d+ chain links, [1-9]\d* checkpoints and 1 signed export heads hold; verified up to the checkpoint of size \d+, signed at \S+\n$/,
    );
  });

  it("verifies with this installation's key when given none, and `platform audit key` prints the key GET /audit/key gives", async () => {
    const file = join(files, 'default-key.ndjson');
    writeFileSync(file, exportedText);
    expect(await platform(dir, ['audit', 'verify', file])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^OK: /),
    });
    expect(await platform(dir, ['audit', 'key'])).toEqual({ code: 0, stdout: publicKey, stderr: '' });
  });

  it('trusts every key given: several --public-key flags, or one file of several keys', async () => {
    const file = join(files, 'several.ndjson');
    writeFileSync(file, exportedText);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    writeFileSync(join(files, 'ours.pem'), publicKey);
    writeFileSync(join(files, 'other.pem'), other);
    writeFileSync(join(files, 'both.pem'), `${other}${publicKey}`);
    // The key that signed first, then last: neither flag replaces the other.
    for (const order of [
      ['ours.pem', 'other.pem'],
      ['other.pem', 'ours.pem'],
    ]) {
      const run = await platform(dir, [
        'audit',
        'verify',
        file,
        ...order.flatMap((k) => ['--public-key', join(files, k)]),
      ]);
      expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: /) });
    }
    expect(await platform(dir, ['audit', 'verify', file, '--public-key', join(files, 'both.pem')])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^OK: /),
    });
  });

  it('`platform audit key` creates no key where there is none, unless told to with --create', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'audit-proof-no-key-'));
    const file = join(empty, 'audit-signing-key.pem');
    expectRefused(
      await platform(empty, ['audit', 'key']),
      new RegExp(`^platform: no signing key at ${file}: .*create it with \`platform audit key --create\``),
    );
    expect(existsSync(file)).toBe(false);
    const created = await platform(empty, ['audit', 'key', '--create']);
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
      stderr: '',
    });
    expect(await platform(empty, ['audit', 'key'])).toEqual(created);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe('the tamper matrix: each change is refused, naming the line', () => {
  const rejectionAt = () => exported.findIndex(isRejection);

  it('a rejection whose data is rewritten, the original kept as recorded_data', async () => {
    const lines = copy(exported);
    const rejection = lines[rejectionAt()]!;
    rejection.recorded_data = { ...rejection.data };
    rejection.data!.reason = 'no reason at all';
    expectBroken(
      await verify(lines, 'recorded-data'),
      lineOf(lines, rejection),
      /event ScopeRejected #\d+ of credential-\d+ at position \d+ shows its data otherwise than its recorded fields make it/,
    );
  });

  it("a field of the digest changed: the rejection's reason", async () => {
    const lines = copy(exported);
    lines[rejectionAt()]!.reason = 'no reason at all';
    expectBroken(await verify(lines, 'reason'), rejectionAt() + 1, /event ScopeRejected .* does not match its digest/);
  });

  it('a summary reworded', async () => {
    const lines = copy(exported);
    lines[rejectionAt()]!.summary = 'approved the scope member-groups.read';
    expectBroken(
      await verify(lines, 'summary'),
      rejectionAt() + 1,
      /shows its summary otherwise than its recorded fields make it/,
    );
  });

  it('an id or a position rewritten: the checkpoint over it no longer holds; a username: the signed head', async () => {
    const checkpointOver =
      exported.findIndex(
        (l) => l.stream === CHECKPOINT_STREAM && (l.data as { size: number }).size >= rejectionAt() + 1,
      ) + 1;
    const edits: [(l: Line) => void, number, RegExp][] = [
      [
        (l) => (l.id = 'another-id'),
        checkpointOver,
        /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
      ],
      [
        (l) => (l.position = `${String(l.position)}0`),
        checkpointOver,
        /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
      ],
      [
        (l) => ((l.actor as { username: string }).username = 'someone-else'),
        HEAD(),
        /the page's signed head covers \d+ event lines, and they are not the \d+ lines above it/,
      ],
    ];
    for (const [i, [edit, line, what]] of edits.entries()) {
      const lines = copy(exported);
      edit(lines[rejectionAt()]!);
      expectBroken(await verify(lines, `covered-${i}`), line, what);
    }
  });

  it('a key named twice in a line', async () => {
    const text = exportedText.split('\n');
    text[rejectionAt()] = text[rejectionAt()]!.replace(/^\{/, '{"reason":"no reason at all",');
    expectBroken(await verifyText(text.join('\n'), 'twice'), rejectionAt() + 1, /names the key "reason" twice/);
  });

  it('a field no export line has', async () => {
    const lines = copy(exported);
    lines[rejectionAt()]!.approved = true;
    expectBroken(
      await verify(lines, 'unknown-field'),
      rejectionAt() + 1,
      /not an export line: it holds a field no export line has \(approved\)/,
    );
  });

  it('a digest removed, its prev_digest kept', async () => {
    const lines = copy(exported);
    delete lines[rejectionAt()]!.digest;
    expectBroken(
      await verify(lines, 'no-digest'),
      rejectionAt() + 1,
      /shows its prev_digest otherwise than its recorded fields make it/,
    );
  });

  it('a blank line, in the middle or at the end', async () => {
    const middle = exportedText.split('\n');
    middle.splice(2, 0, '');
    expectBroken(await verifyText(middle.join('\n'), 'blank-middle'), 3, /is blank/);
    expectBroken(await verifyText(`${exportedText}\n`, 'blank-end'), HEAD() + 1, /is blank/);
  });

  it('a line that is not JSON, or not an object', async () => {
    const text = exportedText.split('\n');
    text[1] = text[1]!.slice(0, -1);
    expectBroken(await verifyText(text.join('\n'), 'not-json'), 2, /is not JSON/);
    text[1] = '[]';
    expectBroken(await verifyText(text.join('\n'), 'array'), 2, /is not a JSON object/);
  });

  it('the rejection taken out: the checkpoint over it no longer holds', async () => {
    const rejection = exported.find(isRejection)!;
    expect(
      exported.filter((l) => l.stream === rejection.stream && (l.revision as number) > (rejection.revision as number)),
    ).toEqual([]);
    const removed = exported.filter((l) => !isRejection(l));
    const at = removed.findIndex(
      (l) => l.stream === CHECKPOINT_STREAM && (l.data as { size: number }).size >= rejectionAt() + 1,
    );
    expectBroken(
      await verify(removed, 'dropped'),
      at + 1,
      /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
    );
  });

  it('an event before the rejection in its stream taken out', async () => {
    const rejection = exported.find(isRejection)!;
    const removed = exported.filter(
      (l) => !(l.stream === rejection.stream && l.revision === (rejection.revision as number) - 1),
    );
    expectBroken(
      await verify(removed, 'gap'),
      lineOf(removed, rejection),
      new RegExp(`follows #${(rejection.revision as number) - 2} of its stream`),
    );
  });

  it('two lines swapped, or one repeated', async () => {
    const swapped = copy(exported);
    const at = rejectionAt();
    [swapped[at - 1], swapped[at]] = [swapped[at]!, swapped[at - 1]!];
    const run = await verify(swapped, 'swapped');
    expect(run.stderr).toMatch(/reordered|signed head covers/);
    const repeated = copy(exported);
    repeated.splice(at + 1, 0, copy([exported[at]!])[0]!);
    expectBroken(await verify(repeated, 'repeated'), at + 2, /follows #\d+ of its stream: .*repeated/);
  });

  it('the tail cut off, the signed head with it, or the last event line alone', async () => {
    expectBroken(await verify(exported.slice(0, -3), 'cut'), HEAD() - 3, /ends without its signed head/);
    const lastEventOut = [...exported.slice(0, -2), exported.at(-1)!];
    expectBroken(await verify(lastEventOut, 'last-out'), HEAD() - 1, /the page's signed head covers/);
  });

  it('a head edited beside its note: the line says what the signed note does not', async () => {
    const lines = copy(exported);
    lines.at(-1)!.more = true;
    expectBroken(
      await verify(lines, 'head-edited'),
      HEAD(),
      /the export head shows a more its signed note does not say/,
    );
  });

  it('another key', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expectBroken(
      await verify(exported, 'other-key', other),
      exported.findIndex((l) => l.stream === CHECKPOINT_STREAM) + 1,
      /does not verify: no signature by a key given/,
    );
  });

  it('an older signed head over the longer log', async () => {
    // One more event, then the log exported again: its lines under the first export's head.
    const { developer, member } = partner;
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes: ['member-groups.read'], reason: 'asked again' })
      .expect(200);
    const longer = ((await exportText()).body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(longer.length).toBeGreaterThan(exported.length);
    const lines = [...longer.slice(0, -1), exported.at(-1)!];
    expectBroken(
      await verify(lines, 'old-head'),
      lines.length,
      /the page's signed head covers \d+ event lines, and they are not the \d+ lines above it/,
    );
  });

  it('verifies an export taken in pages, each head starting where the one before ended', async () => {
    const first = (await auditor.get(`${API}/audit/events`).query({ limit: 5 }).buffer(true).parse(textOf))
      .body as string;
    const next = (JSON.parse(first.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const rest = (
      await auditor.get(`${API}/audit/events`).query({ from: next, limit: 10_000 }).buffer(true).parse(textOf)
    ).body as string;
    expect((await verifyText(`${first}${rest}`, 'pages')).stdout).toMatch(
      / and 2 signed export heads hold; verified up to the checkpoint of size \d+, signed at \S+\n$/,
    );
    // The first page alone verifies, and says the log goes on past it: its signed head says so.
    expect((await verifyText(first, 'first-page')).stdout).toMatch(
      new RegExp(
        `^OK: 5 events, .* and 1 signed export heads hold; .*; the export is a page: the log goes on past position ${next}, beyond what it holds\\n$`,
      ),
    );
    // The first page's head taken out: the second head does not cover the lines above it.
    const lines = `${first}${rest}`.split('\n');
    expectBroken(
      await verifyText([...lines.slice(0, 5), ...lines.slice(6)].join('\n'), 'head-removed'),
      lines.indexOf(rest.split('\n').at(-2)!),
      /the page's signed head covers \d+ event lines/,
    );
    // A page left out: its events' streams show the gap, else the next head starts after another position.
    const third = (await auditor.get(`${API}/audit/events`).query({ from: next, limit: 5 }).buffer(true).parse(textOf))
      .body as string;
    const after = (JSON.parse(third.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const fourth = (
      await auditor.get(`${API}/audit/events`).query({ from: after, limit: 10_000 }).buffer(true).parse(textOf)
    ).body as string;
    const missing = await verifyText(`${first}${fourth}`, 'page-missing');
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^platform: the export does not verify: line \d+: .*(the events before it were taken out|follows #\d+ of its stream|a page is missing)/,
      ),
    });
  });
});

const rootOf = (note: string) => parseTreeHead(parseNote(note).text).root;
const signedCheckpoints = async () =>
  (await t.platform.stores.events.readStream(CHECKPOINT_STREAM))
    .filter((e) => e.type === CHECKPOINT_TYPE)
    .map((e) => e.data as Checkpoint);

describe('GET /audit/key', () => {
  it('gives the key as PEM and as the C2SP verifier key that names the signatures of the checkpoints', async () => {
    const { data } = (await auditor.get(`${API}/audit/key`).expect(200)).body as {
      data: Record<string, unknown> & { keys: Record<string, unknown>[] };
    };
    const key = parseVerifierKey(data.verifier_key as string);
    expect(key.hash).toBe(data.key_hash);
    expect(key.publicKey.export({ type: 'spki', format: 'pem' })).toBe(data.public_key);
    expect(data.keys).toEqual([
      { verifier_key: data.verifier_key, key_hash: data.key_hash, public_key: data.public_key, current: true },
    ]);
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
    const first = await auditor
      .get(`${API}/audit/checkpoint`)
      .query({ size: all[0]!.size })
      .buffer(true)
      .parse(textOf)
      .expect(200);
    expect(first.body).toBe(all[0]!.note);
  });

  it('refuses a size no checkpoint was signed at, and one that is not a number', async () => {
    const sizes = new Set((await signedCheckpoints()).map((c) => c.size));
    const unsigned = [...Array(1000).keys()].find((n) => n > 0 && !sizes.has(n))!;
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/checkpoint`).query({ size: unsigned }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/checkpoint`).query({ size: 'ten' }),
      422,
      'validation_failed',
    );
    await expectRefusal(t, () => auditor.get(`${API}/audit/checkpoint`).query({ size: '0' }), 422, 'validation_failed');
  });
});

describe('GET /audit/proof', () => {
  it("proves the rejection alone: its leaf holds the event's fields, and its path leads to the signed root", async () => {
    const rejection = exported.find(isRejection)!;
    const { data } = (
      await auditor
        .get(`${API}/audit/proof`)
        .query({ event: rejection.id as string })
        .expect(200)
    ).body as {
      data: { leaf_index: number; leaf: string; audit_path: string[]; checkpoint: string };
    };
    const leaf = Buffer.from(data.leaf, 'base64');
    expect(JSON.parse(leaf.toString('utf8'))).toMatchObject({
      id: rejection.id,
      type: 'ScopeRejected',
      position: rejection.position,
      digest: rejection.digest,
    });
    expect(data.checkpoint).toBe((await signedCheckpoints()).at(-1)!.note);
    const size = parseTreeHead(parseNote(data.checkpoint).text).size;
    const path = data.audit_path.map((h) => Buffer.from(h, 'base64'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(leaf), path, rootOf(data.checkpoint))).toBe(true);
    const changed = Buffer.from(leaf.toString('utf8').replace(REASON, 'no reason at all'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(changed), path, rootOf(data.checkpoint))).toBe(false);
  });

  it('`platform audit verify-proof` checks the saved answer and prints the event from its leaf; a changed leaf is refused', async () => {
    const rejection = exported.find(isRejection)!;
    const res = await auditor
      .get(`${API}/audit/proof`)
      .query({ event: rejection.id as string })
      .expect(200);
    writeFileSync(join(files, 'key.pem'), publicKey);
    const file = join(files, 'proof.json');
    writeFileSync(file, res.text);
    const run = await platform(dir, ['audit', 'verify-proof', file, '--public-key', join(files, 'key.pem')]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('ScopeRejected');
    expect(run.stdout).toContain(REASON);
    const answer = JSON.parse(res.text) as { data: { leaf: string } };
    answer.data.leaf = Buffer.from(
      Buffer.from(answer.data.leaf, 'base64').toString('utf8').replace(REASON, 'no reason at all'),
    ).toString('base64');
    writeFileSync(file, JSON.stringify(answer));
    expectRefused(
      await platform(dir, ['audit', 'verify-proof', file, '--public-key', join(files, 'key.pem')]),
      /does not/,
    );
  });

  it('proves it in an earlier checkpoint by its size', async () => {
    const rejection = exported.find(isRejection)!;
    const covering = (await signedCheckpoints()).find((c) => c.position >= String(rejection.position))!;
    const { data } = (
      await auditor
        .get(`${API}/audit/proof`)
        .query({ event: rejection.id as string, size: covering.size })
        .expect(200)
    ).body as {
      data: { leaf_index: number; leaf: string; audit_path: string[]; checkpoint: string };
    };
    expect(data.checkpoint).toBe(covering.note);
    const path = data.audit_path.map((h) => Buffer.from(h, 'base64'));
    expect(
      holdsInclusion(
        data.leaf_index,
        covering.size,
        leafHash(Buffer.from(data.leaf, 'base64')),
        path,
        rootOf(covering.note),
      ),
    ).toBe(true);
  });

  it('answers 404 for an id no checkpoint covers or a size never signed, and 422 without an id', async () => {
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/proof`).query({ event: 'no-such-event' }),
      404,
      'event_not_checkpointed',
    );
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/proof`).query({ event: exported[0]!.id as string, size: 999_999 }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(t, () => auditor.get(`${API}/audit/proof`), 422, 'validation_failed');
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/proof`).query({ event: 'x', size: '-1' }),
      422,
      'validation_failed',
    );
  });
});

describe('GET /audit/consistency', () => {
  it('proves the first checkpoint a prefix of the latest', async () => {
    const all = await signedCheckpoints();
    const [from, to] = [all[0]!, all.at(-1)!];
    const { data } = (await auditor.get(`${API}/audit/consistency`).query({ from: from.size, to: to.size }).expect(200))
      .body as {
      data: { proof: string[]; from_checkpoint: string; to_checkpoint: string };
    };
    expect([data.from_checkpoint, data.to_checkpoint]).toEqual([from.note, to.note]);
    const proof = data.proof.map((h) => Buffer.from(h, 'base64'));
    expect(holdsConsistency(from.size, to.size, rootOf(from.note), rootOf(to.note), proof)).toBe(true);
  });

  it('refuses sizes out of order, a size never signed, and missing sizes', async () => {
    const all = await signedCheckpoints();
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/consistency`).query({ from: all.at(-1)!.size, to: all[0]!.size }),
      422,
      'sizes_out_of_order',
    );
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/consistency`).query({ from: 1, to: 999_999 }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(t, () => auditor.get(`${API}/audit/consistency`).query({ from: 1 }), 422, 'validation_failed');
  });
});

describe('the proof endpoints', () => {
  it('are for auditors only, as is the key', async () => {
    await expectRefusal(t, () => partner.developer.get(`${API}/audit/key`), 401, 'admin_not_logged_in');
    await expectRefusal(
      t,
      () => t.client().get(`${API}/audit/proof`).query({ event: 'x' }),
      401,
      'admin_not_logged_in',
    );
    await expectRefusal(t, () => t.client().get(`${API}/audit/checkpoint`), 401, 'admin_not_logged_in');
    await expectRefusal(
      t,
      () => t.client().get(`${API}/audit/consistency`).query({ from: 1, to: 2 }),
      401,
      'admin_not_logged_in',
    );
  });
});
