import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectRefused, platform } from '../../support/cli';
import { platformInProcess } from '../../support/cli-in-process';
import { textOf } from '../../support/audit-export';
import { API, expectBroken, isRejection, linesOf, provenPlatform } from '../support/proven-platform';

// An export saved from the API, verified offline by `platform audit verify`: whole, with the keys
// given or this installation's, taken later or in pages. The command line runs as a process where
// the process is what is tested (which key file DATA_DIR names); elsewhere in this one.

const p = provenPlatform();
const { verifyText, verify } = p;

describe('the export verified offline with the key from GET /audit/key', () => {
  it('verifies as exported, saying up to which checkpoint and when it was signed', async () => {
    expect(p.exported.filter(isRejection)).toHaveLength(1);
    const run = await verifyText(p.exportedText, 'as-exported');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^OK: \d+ events, \d+ chain links, [1-9]\d* checkpoints and 1 signed export heads hold; verified up to the checkpoint of size \d+, signed at \S+\n$/,
    );
  });

  it("verifies with this installation's key when given none, and `platform audit key` prints the key GET /audit/key gives", async () => {
    const file = join(p.files, 'default-key.ndjson');
    writeFileSync(file, p.exportedText);
    expect(await platform(p.dir, ['audit', 'verify', file])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^OK: /),
    });
    expect(await platform(p.dir, ['audit', 'key'])).toEqual({ code: 0, stdout: p.publicKey, stderr: '' });
  });

  it('trusts every key given: several --public-key flags, or one file of several keys', async () => {
    const file = join(p.files, 'several.ndjson');
    writeFileSync(file, p.exportedText);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    writeFileSync(join(p.files, 'ours.pem'), p.publicKey);
    writeFileSync(join(p.files, 'other.pem'), other);
    writeFileSync(join(p.files, 'both.pem'), `${other}${p.publicKey}`);
    // The key that signed first, then last: neither flag replaces the other.
    for (const order of [
      ['ours.pem', 'other.pem'],
      ['other.pem', 'ours.pem'],
    ]) {
      const run = await platformInProcess(p.dir, [
        'audit',
        'verify',
        file,
        ...order.flatMap((k) => ['--public-key', join(p.files, k)]),
      ]);
      expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: /) });
    }
    expect(
      await platformInProcess(p.dir, ['audit', 'verify', file, '--public-key', join(p.files, 'both.pem')]),
    ).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^OK: /),
    });
  });

  it('`platform audit key` creates no key where there is none, unless told to with --create', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'audit-proof-no-key-'));
    const file = join(empty, 'audit-signing-key.pem');
    expectRefused(
      await platformInProcess(empty, ['audit', 'key']),
      new RegExp(`^platform: no signing key at ${file}: .*create it with \`platform audit key --create\``),
    );
    expect(existsSync(file)).toBe(false);
    const created = await platformInProcess(empty, ['audit', 'key', '--create']);
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
      stderr: '',
    });
    expect(await platformInProcess(empty, ['audit', 'key'])).toEqual(created);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe('the tamper matrix: each change is refused, naming the line', () => {
  it('an older signed head over the longer log', async () => {
    // One more event, then the log p.exported again: its lines under the first export's head.
    const { developer, member } = p.partner;
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes: ['member-groups.read'], reason: 'asked again' })
      .expect(200);
    const longer = linesOf((await p.exportText()).body as string);
    expect(longer.length).toBeGreaterThan(p.exported.length);
    const lines = [...longer.slice(0, -1), p.exported.at(-1)!];
    expectBroken(
      await verify(lines, 'old-head'),
      lines.length,
      /the page's signed head covers \d+ event lines, and they are not the \d+ lines above it/,
    );
  });

  it('verifies an export taken in pages, each head starting where the one before ended', async () => {
    const first = (await p.auditor.get(`${API}/audit/events`).query({ limit: 5 }).buffer(true).parse(textOf))
      .body as string;
    const next = (JSON.parse(first.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const rest = (
      await p.auditor.get(`${API}/audit/events`).query({ from: next, limit: 10_000 }).buffer(true).parse(textOf)
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
    const third = (
      await p.auditor.get(`${API}/audit/events`).query({ from: next, limit: 5 }).buffer(true).parse(textOf)
    ).body as string;
    const after = (JSON.parse(third.trimEnd().split('\n').at(-1)!) as { next: string }).next;
    const fourth = (
      await p.auditor.get(`${API}/audit/events`).query({ from: after, limit: 10_000 }).buffer(true).parse(textOf)
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
