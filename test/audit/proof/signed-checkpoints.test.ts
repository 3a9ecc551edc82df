import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectRefused, platform, Run } from '../../support/cli';
import { saved, SignedLog, signedByAll, signingKey } from './signed-log';

// Logs whose checkpoints are C2SP signed notes, as `platform audit verify` reads their exports.

const ORIGIN = 'api.example.com/audit';
const files = mkdtempSync(join(tmpdir(), 'signed-checkpoints-'));
const first = signingKey(ORIGIN);
const second = signingKey(ORIGIN);
const logs: SignedLog[] = [];

afterAll(async () => {
  for (const log of logs) await log.stores.close();
  rmSync(files, { recursive: true, force: true });
});

async function logOf(origin = ORIGIN): Promise<SignedLog> {
  const log = new SignedLog(origin);
  logs.push(log);
  return log;
}

const checkpointer = {
  actor: { kind: 'system' as const, id: 'audit-checkpoints' },
  request_id: 'checkpoint',
  time: '2026-12-01T00:00:00.000Z',
};

let run = 0;
/** `platform audit verify` on the text, trusting the keys given as files. */
function verify(text: string, keys: string[], ...more: string[]): Promise<Run> {
  const file = saved(files, `export-${++run}.ndjson`, text);
  const keyFiles = keys.map((key, i) => saved(files, `key-${run}-${i}`, key));
  return platform(files, ['audit', 'verify', file, ...keyFiles.flatMap((k) => ['--public-key', k]), ...more]);
}

describe('checkpoints as signed notes', () => {
  it('verifies their signatures and roots, and says up to which checkpoint and when it was signed', async () => {
    const log = await logOf();
    await log.record(3);
    await log.checkpoint([first]);
    await log.record(2);
    const exported = await log.exportText(first);
    const ok = await verify(exported, [first.publicKeyPem]);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(
      /^OK: 6 events, 5 chain links, 1 checkpoints and 1 signed export heads hold; verified up to the checkpoint of size 3, signed at \d{4}-\S+Z\n$/,
    );
    // As a note verifier key, the same.
    expect(await verify(exported, [`${first.noteKey.verifierKey}\n`])).toMatchObject({ code: 0, stdout: ok.stdout });
    // Another key signed the log.
    expectRefused(
      await verify(exported, [second.publicKeyPem]),
      /^platform: the export does not verify: line 4: the checkpoint at position \d+ does not verify: no signature by a key given/,
    );
  });

  it('refuses a checkpoint whose note signs another tree than the lines above it', async () => {
    const log = await logOf();
    await log.record(3);
    const events = await log.all();
    const note = await log.note([first], 2);
    await log.stores.events.append(
      'audit-checkpoints',
      [
        {
          type: 'AuditCheckpointSigned',
          data: { note, size: 3, position: events.at(-1)!.position, frontier: [] },
          metadata: checkpointer,
        },
      ],
      'any',
    );
    expectRefused(
      await verify(await log.exportText(first), [first.publicKeyPem]),
      /^platform: the export does not verify: line 4: the checkpoint says size 3 beside a note signed for size 2/,
    );
  });

  it('refuses the pages of two logs spliced, though both keys are trusted', async () => {
    const ours = await logOf();
    const theirs = await logOf('other.example.com/audit');
    const theirKey = signingKey('other.example.com/audit');
    for (const log of [ours, theirs]) await log.record(4);
    const page = await ours.exportText(first, '', 2);
    const next = (JSON.parse(page.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const spliced = `${page}${await theirs.exportText(theirKey, next)}`;
    expectRefused(
      await verify(spliced, [first.publicKeyPem, theirKey.publicKeyPem]),
      /^platform: the export does not verify: line 6: this line is signed for the log other\.example\.com\/audit, the lines before it for api\.example\.com\/audit: two logs' exports were spliced/,
    );
  });
});

describe('lines rebuilt from what their leaves cover', () => {
  it('verifies data upcast from what was recorded and an invalid event as worded, and refuses either shown otherwise', async () => {
    const log = await logOf();
    const v1 = { ...checkpointer, actor: { kind: 'admin' as const, id: 1 }, schema_version: 1 };
    await log.stores.events.append(
      'credential-7',
      [{ type: 'CredentialApproved', data: { member_id: 7 }, metadata: v1 }],
      'no_stream',
    );
    await log.stores.events.append(
      'elsewhere-1',
      [{ type: 'SomethingRetired', data: { what: 'x' }, metadata: checkpointer }],
      'no_stream',
    );
    const exported = await log.exportText(first);
    const [approved, retired, head] = exported
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(approved).toMatchObject({
      data: { member_id: 7, expires_at: null },
      recorded_data: { member_id: 7 },
      summary: expect.stringMatching(/approved/),
    });
    expect(retired).toMatchObject({ invalid: expect.stringMatching(/no event of this type is known/) });
    expect(await verify(exported, [first.publicKeyPem])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^OK: 2 events, /),
    });

    const lines = (edit: (approved: Record<string, unknown>, retired: Record<string, unknown>) => void) => {
      const [a, r] = [structuredClone(approved!), structuredClone(retired!)];
      edit(a, r);
      return [a, r, head].map((l) => `${JSON.stringify(l)}\n`).join('');
    };
    const dataChanged = lines(
      (a) => ((a.data as { expires_at: string | null }).expires_at = '2030-01-01T00:00:00.000Z'),
    );
    expectRefused(
      await verify(dataChanged, [first.publicKeyPem]),
      /line 1: event CredentialApproved #0 of credential-7 at position \d+ shows its data otherwise than its recorded fields make it/,
    );
    const notInvalid = lines((_, r) => delete r.invalid);
    expectRefused(
      await verify(notInvalid, [first.publicKeyPem]),
      /line 2: event SomethingRetired #0 of elsewhere-1 at position \d+ shows its invalid otherwise than its recorded fields make it/,
    );
  });
});

describe('a key rotation in the log', () => {
  it('trusts the new key once the checkpoint after it is signed by the old key and the new one', async () => {
    const log = await logOf();
    await log.record(2);
    await log.checkpoint([first]);
    await log.rotate(first, second);
    await log.checkpoint([first, second]);
    await log.record(2);
    await log.checkpoint([second]);
    const run = await verify(await log.exportText(second), [first.publicKeyPem]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^OK: 8 events, .* 3 checkpoints and 1 signed export heads hold; verified up to the checkpoint of size 7, /,
    );
  });

  it('refuses a rotation whose next checkpoint the old key did not sign with the new one', async () => {
    const log = await logOf();
    await log.record(2);
    await log.rotate(first, second);
    await log.checkpoint([second]);
    const exported = await log.exportText(second);
    expectRefused(
      await verify(exported, [first.publicKeyPem]),
      /^platform: the export does not verify: line 4: the checkpoint after the key rotation on line 3 is not signed by both the old key and the new one/,
    );
    // Signed by the old key alone: the new one never became trusted.
    const oldOnly = await logOf();
    await oldOnly.record(2);
    await oldOnly.rotate(first, second);
    await oldOnly.checkpoint([first]);
    expectRefused(
      await verify(await oldOnly.exportText(first), [first.publicKeyPem]),
      /line 4: the checkpoint after the key rotation on line 3 is not signed by both the old key and the new one/,
    );
  });
});

describe('platform audit verify --checkpoint: the export is a prefix of a newer checkpoint', () => {
  it('says so with the consistency proof, and refuses a proof or a checkpoint of another log', async () => {
    const log = await logOf();
    await log.record(3);
    await log.checkpoint([first]);
    await log.record(1);
    const exported = await log.exportText(first);
    await log.record(5);
    const newer = await log.note([first]);
    const size = (await log.all()).length;
    const note = saved(files, 'newer.note', newer);
    const answer = saved(files, 'consistency.json', JSON.stringify(await log.consistency(5, size, newer)));
    const fresh = await verify(exported, [first.publicKeyPem], '--checkpoint', note, '--consistency', answer);
    expect(fresh).toMatchObject({ code: 0, stderr: '' });
    expect(fresh.stdout).toMatch(
      new RegExp(
        `; the export's first 5 events of the log are a prefix of the checkpoint of size ${size} signed at \\S+Z\\n$`,
      ),
    );

    const wrong = JSON.parse(JSON.stringify(await log.consistency(5, size, newer))) as { data: { proof: string[] } };
    wrong.data.proof[0] = Buffer.alloc(32).toString('base64');
    const refused = await verify(
      exported,
      [first.publicKeyPem],
      '--checkpoint',
      note,
      '--consistency',
      saved(files, 'wrong.json', JSON.stringify(wrong)),
    );
    expectRefused(
      refused,
      new RegExp(`^platform: the export's 5 events are not a prefix of the checkpoint of size ${size}`),
    );

    // Asked of the service itself, with the auditor's session.
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(`${req.url} ${req.headers.cookie}`);
      res.setHeader('content-type', 'application/json');
      res.end(readFileSync(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const online = await verify(
      exported,
      [first.publicKeyPem],
      '--checkpoint',
      note,
      '--url',
      base,
      '--header',
      'Cookie: PHPSESSID=auditor',
    );
    server.close();
    expect(online).toMatchObject({ code: 0, stdout: fresh.stdout });
    expect(asked).toEqual([`/api/v1/audit/consistency?from=5&to=${size} PHPSESSID=auditor`]);

    // A checkpoint of a log rewritten after the export: the proof cannot lead to it.
    const rewritten = await logOf();
    await rewritten.record(size);
    const other = saved(files, 'rewritten.note', await rewritten.note([first]));
    expectRefused(
      await verify(exported, [first.publicKeyPem], '--checkpoint', other, '--consistency', answer),
      /is not a prefix of|are not a prefix of|ends at another tree/,
    );
  });
});

describe('platform audit verify-proof', () => {
  it('follows the leaf to the signed root and prints the event from the leaf bytes', async () => {
    const log = await logOf();
    await log.record(5);
    const proof = await log.proof(2, [first]);
    const key = saved(files, 'proof.key', first.publicKeyPem);
    const ok = await platform(files, [
      'audit',
      'verify-proof',
      saved(files, 'proof.json', JSON.stringify(proof)),
      '--public-key',
      key,
    ]);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(
      /^OK: event PlatformSeeded #0 of test-2 at position \d+ is leaf 2 of the 5 events of the checkpoint of api\.example\.com\/audit signed at \S+\n/,
    );
    expect(ok.stdout).toMatch(/\n {2}request_id: req-2\n/);

    // The leaf rewritten: its hash no longer leads to the root.
    const leaf = Buffer.from(proof.data.leaf, 'base64').toString('utf8');
    const changed = { data: { ...proof.data, leaf: Buffer.from(leaf.replace('req-2', 'req-9')).toString('base64') } };
    expectRefused(
      await platform(files, [
        'audit',
        'verify-proof',
        saved(files, 'changed.json', JSON.stringify(changed)),
        '--public-key',
        key,
      ]),
      /^platform: the path does not lead from event PlatformSeeded #0 of test-2/,
    );
    // A checkpoint signed by a key not given.
    const forged = {
      data: { ...proof.data, checkpoint: signedByAll(proof.data.checkpoint.split('\n\n')[0]! + '\n', [second]) },
    };
    expectRefused(
      await platform(files, [
        'audit',
        'verify-proof',
        saved(files, 'forged.json', JSON.stringify(forged)),
        '--public-key',
        key,
      ]),
      /^platform: the proof's checkpoint does not verify: no signature by a key given/,
    );
  });
});
