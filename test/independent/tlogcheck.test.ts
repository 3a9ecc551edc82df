import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { CHECKPOINT_STREAM, CHECKPOINT_TYPE } from '../../src/audit/proof/checkpoint';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../support/platform';

/**
 * The checkpoints and proofs as GET /audit/* gives them, checked by Go's golang.org/x/mod/sumdb/note
 * and sumdb/tlog (./tlogcheck/main.go): code the project did not write. `npm test` installs Debian's
 * packages first (scripts/golang.sh); under CI a missing Go fails this test rather than skipping it.
 */
const API = '/api/v1';
const SUMDB = '/usr/share/gocode/src/golang.org/x/mod/sumdb/tlog';
const goFound = (() => {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return existsSync(SUMDB);
  } catch {
    return false;
  }
})();
const suite = goFound || process.env.CI === 'true' ? describe : describe.skip;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const files = mkdtempSync(join(tmpdir(), 'tlogcheck-'));
const program = join(files, 'tlogcheck');
let t: TestPlatform;
let auditor: request.Agent;
let vkey: string;
let fileCount = 0;

const tlogcheck = (...args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(program, args, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
const saved = (note: string): string => {
  const file = join(files, `note-${fileCount++}`);
  writeFileSync(file, note);
  return file;
};
const checkpointSizes = async () =>
  (await t.platform.stores.events.readStream(CHECKPOINT_STREAM))
    .filter((e) => e.type === CHECKPOINT_TYPE)
    .map((e) => e.data.size as number);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

interface Proof {
  leaf_index: number;
  leaf: string;
  audit_path: string[];
  checkpoint: string;
}
const proofOf = async (event: string, size?: number) =>
  (
    await auditor
      .get(`${API}/audit/proof`)
      .query(size === undefined ? { event } : { event, size })
      .expect(200)
  ).body.data as Proof;
const checkInclusion = (p: Proof, overrides: Partial<Record<'leaf' | 'index' | 'note', string>> = {}) =>
  tlogcheck(
    'inclusion',
    vkey,
    overrides.note ?? saved(p.checkpoint),
    overrides.leaf ?? p.leaf,
    overrides.index ?? String(p.leaf_index),
    p.audit_path.join(','),
  );

suite('the audit proofs, checked by Go’s sumdb/note and sumdb/tlog', () => {
  beforeAll(async () => {
    if (!goFound)
      throw new Error(
        `no Go with golang.org/x/mod (${SUMDB}): run scripts/golang.sh as root, or apt-get install golang-go golang-golang-x-mod-dev`,
      );
    execFileSync('go', ['build', '-o', program, '.'], {
      cwd: join(__dirname, 'tlogcheck'),
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOFLAGS: '' },
    });
    t = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 });
    auditor = t.client();
    await logInAdmin(auditor);
    await until(async () => (await checkpointSizes()).length > 0, 'a first checkpoint');
    // More events after it: a second checkpoint, to which the first is a prefix.
    const first = (await checkpointSizes())[0]!;
    await registerMember(t.client());
    await until(async () => (await checkpointSizes()).some((size) => size > first + 1), 'a later checkpoint');
    // The tree's read model records a checkpoint after it is appended: the API serves it a moment later.
    const latest = String((await checkpointSizes()).at(-1));
    await until(
      async () => (await auditor.get(`${API}/audit/checkpoint`)).text.split('\n')[1] === latest,
      'the latest checkpoint served',
    );
    vkey = (await auditor.get(`${API}/audit/key`).expect(200)).body.data.verifier_key as string;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('accepts the audit path of every event of the latest checkpoint, and of one in the first', async () => {
    const events = await t.allEvents();
    const [first] = await checkpointSizes();
    const latest = await proofOf(events[0]!.id!);
    const size = Number(latest.checkpoint.split('\n')[1]);
    for (const event of events.slice(0, size)) {
      const run = await checkInclusion(await proofOf(event.id!, size));
      expect(run).toEqual({
        code: 0,
        stdout: `OK: leaf ${events.indexOf(event)} is in the signed tree of ${size} leaves\n`,
        stderr: '',
      });
    }
    expect((await checkInclusion(await proofOf(events[first! - 1]!.id!, first))).code).toBe(0);
  });

  it('refuses a leaf with one byte changed, a wrong index, and a changed note', async () => {
    const p = await proofOf((await t.allEvents())[2]!.id!);
    const leaf = Buffer.from(p.leaf, 'base64');
    leaf.writeUInt8(leaf.readUInt8(leaf.length - 3) ^ 1, leaf.length - 3);
    expect(await checkInclusion(p, { leaf: leaf.toString('base64') })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^tlogcheck: leaf 2 is not in the tree of \d+: invalid transparency proof\n$/),
    });
    expect(await checkInclusion(p, { index: '3' })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^tlogcheck: leaf 3 is not in the tree of \d+/),
    });
    const [origin, size, ...rest] = p.checkpoint.split('\n');
    const grown = [origin, String(Number(size) + 1), ...rest].join('\n');
    expect(await checkInclusion(p, { note: saved(grown) })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^tlogcheck: .*: invalid signature/),
    });
  });

  it('accepts the consistency proof of the first checkpoint and the latest, and refuses a changed one', async () => {
    const sizes = await checkpointSizes();
    const [from, to] = [sizes[0]!, sizes.at(-1)!];
    const { data } = (await auditor.get(`${API}/audit/consistency`).query({ from, to }).expect(200)).body as {
      data: { proof: string[]; from_checkpoint: string; to_checkpoint: string };
    };
    const check = (proof: string[]) =>
      tlogcheck('consistency', vkey, saved(data.from_checkpoint), saved(data.to_checkpoint), proof.join(','));
    expect(await check(data.proof)).toEqual({
      code: 0,
      stdout: `OK: the signed tree of ${from} leaves is a prefix of the signed tree of ${to}\n`,
      stderr: '',
    });
    const changed = [...data.proof];
    changed[0] = Buffer.alloc(32, 7).toString('base64');
    expect(await check(changed)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/is not a prefix of the tree of/),
    });
  });
});
