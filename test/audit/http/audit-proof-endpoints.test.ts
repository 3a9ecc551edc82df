import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leafHash } from '../../../src/audit/proof/merkle';
import { openNote, parseNote, parseVerifierKey } from '../../../src/audit/proof/note';
import { holdsConsistency, holdsInclusion } from '../../../src/audit/proof/paths';
import { parseTreeHead } from '../../../src/audit/proof/tree-head';
import { expectRefused } from '../../support/cli';
import { expectRefusal } from '../../support/platform';
import { platformInProcess } from '../../support/cli-in-process';
import { textOf } from '../../support/audit-export';
import { API, isRejection, provenPlatform, REASON, rootOf } from '../support/proven-platform';

// The endpoints an auditor proves the log with: the key, the signed checkpoints, and the
// inclusion and consistency proofs against them.

const p = provenPlatform();

describe('GET /audit/key', () => {
  it('gives the key as PEM and as the C2SP verifier key that names the signatures of the checkpoints', async () => {
    const { data } = (await p.auditor.get(`${API}/audit/key`).expect(200)).body as {
      data: Record<string, unknown> & { keys: Record<string, unknown>[] };
    };
    const key = parseVerifierKey(data.verifier_key as string);
    expect(key.hash).toBe(data.key_hash);
    expect(key.publicKey.export({ type: 'spki', format: 'pem' })).toBe(data.public_key);
    expect(data.keys).toEqual([
      { verifier_key: data.verifier_key, key_hash: data.key_hash, public_key: data.public_key, current: true },
    ]);
    const [latest] = (await p.signedCheckpoints()).slice(-1);
    expect(openNote(latest!.note, [key]).signedBy).toEqual([key]);
  });
});

describe('GET /audit/checkpoint', () => {
  it('answers the latest signed note as text, byte for byte as signed, and an earlier one by its size', async () => {
    const res = await p.auditor.get(`${API}/audit/checkpoint`).buffer(true).parse(textOf).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const all = await p.signedCheckpoints();
    expect(res.body).toBe(all.at(-1)!.note);
    const first = await p.auditor
      .get(`${API}/audit/checkpoint`)
      .query({ size: all[0]!.size })
      .buffer(true)
      .parse(textOf)
      .expect(200);
    expect(first.body).toBe(all[0]!.note);
  });

  it('refuses a size no checkpoint was signed at, and one that is not a number', async () => {
    const sizes = new Set((await p.signedCheckpoints()).map((c) => c.size));
    const unsigned = [...Array(1000).keys()].find((n) => n > 0 && !sizes.has(n))!;
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/checkpoint`).query({ size: unsigned }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/checkpoint`).query({ size: 'ten' }),
      422,
      'validation_failed',
    );
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/checkpoint`).query({ size: '0' }),
      422,
      'validation_failed',
    );
  });
});

describe('GET /audit/proof', () => {
  it("proves the rejection alone: its leaf holds the event's fields, and its path leads to the signed root", async () => {
    const rejection = p.exported.find(isRejection)!;
    const { data } = (
      await p.auditor
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
    expect(data.checkpoint).toBe((await p.signedCheckpoints()).at(-1)!.note);
    const size = parseTreeHead(parseNote(data.checkpoint).text).size;
    const path = data.audit_path.map((h) => Buffer.from(h, 'base64'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(leaf), path, rootOf(data.checkpoint))).toBe(true);
    const changed = Buffer.from(leaf.toString('utf8').replace(REASON, 'no reason at all'));
    expect(holdsInclusion(data.leaf_index, size, leafHash(changed), path, rootOf(data.checkpoint))).toBe(false);
  });

  it('`platform audit verify-proof` checks the saved answer and prints the event from its leaf; a changed leaf is refused', async () => {
    const rejection = p.exported.find(isRejection)!;
    const res = await p.auditor
      .get(`${API}/audit/proof`)
      .query({ event: rejection.id as string })
      .expect(200);
    writeFileSync(join(p.files, 'key.pem'), p.publicKey);
    const file = join(p.files, 'proof.json');
    writeFileSync(file, res.text);
    const run = await platformInProcess(p.dir, [
      'audit',
      'verify-proof',
      file,
      '--public-key',
      join(p.files, 'key.pem'),
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('ScopeRejected');
    expect(run.stdout).toContain(REASON);
    const answer = JSON.parse(res.text) as { data: { leaf: string } };
    answer.data.leaf = Buffer.from(
      Buffer.from(answer.data.leaf, 'base64').toString('utf8').replace(REASON, 'no reason at all'),
    ).toString('base64');
    writeFileSync(file, JSON.stringify(answer));
    expectRefused(
      await platformInProcess(p.dir, ['audit', 'verify-proof', file, '--public-key', join(p.files, 'key.pem')]),
      /does not/,
    );
  });

  it('proves it in an earlier checkpoint by its size', async () => {
    const rejection = p.exported.find(isRejection)!;
    const covering = (await p.signedCheckpoints()).find((c) => c.position >= String(rejection.position))!;
    const { data } = (
      await p.auditor
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
      p.t,
      () => p.auditor.get(`${API}/audit/proof`).query({ event: 'no-such-event' }),
      404,
      'event_not_checkpointed',
    );
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/proof`).query({ event: p.exported[0]!.id as string, size: 999_999 }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(p.t, () => p.auditor.get(`${API}/audit/proof`), 422, 'validation_failed');
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/proof`).query({ event: 'x', size: '-1' }),
      422,
      'validation_failed',
    );
  });
});

describe('GET /audit/consistency', () => {
  it('proves the first checkpoint a prefix of the latest', async () => {
    const all = await p.signedCheckpoints();
    const [from, to] = [all[0]!, all.at(-1)!];
    const { data } = (
      await p.auditor.get(`${API}/audit/consistency`).query({ from: from.size, to: to.size }).expect(200)
    ).body as {
      data: { proof: string[]; from_checkpoint: string; to_checkpoint: string };
    };
    expect([data.from_checkpoint, data.to_checkpoint]).toEqual([from.note, to.note]);
    const proof = data.proof.map((h) => Buffer.from(h, 'base64'));
    expect(holdsConsistency(from.size, to.size, rootOf(from.note), rootOf(to.note), proof)).toBe(true);
  });

  it('refuses sizes out of order, a size never signed, and missing sizes', async () => {
    const all = await p.signedCheckpoints();
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/consistency`).query({ from: all.at(-1)!.size, to: all[0]!.size }),
      422,
      'sizes_out_of_order',
    );
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/consistency`).query({ from: 1, to: 999_999 }),
      404,
      'checkpoint_not_found',
    );
    await expectRefusal(
      p.t,
      () => p.auditor.get(`${API}/audit/consistency`).query({ from: 1 }),
      422,
      'validation_failed',
    );
  });
});

describe('the proof endpoints', () => {
  it('are for auditors only, as is the key', async () => {
    await expectRefusal(p.t, () => p.partner.developer.get(`${API}/audit/key`), 401, 'admin_not_logged_in');
    await expectRefusal(
      p.t,
      () => p.t.client().get(`${API}/audit/proof`).query({ event: 'x' }),
      401,
      'admin_not_logged_in',
    );
    await expectRefusal(p.t, () => p.t.client().get(`${API}/audit/checkpoint`), 401, 'admin_not_logged_in');
    await expectRefusal(
      p.t,
      () => p.t.client().get(`${API}/audit/consistency`).query({ from: 1, to: 2 }),
      401,
      'admin_not_logged_in',
    );
  });
});
