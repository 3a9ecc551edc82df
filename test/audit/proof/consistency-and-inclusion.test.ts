import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { expectRefused } from '../../support/cli';
import { ORIGIN, saved, signedByAll, signedLogs, signingKey, verifyExport, verifyProof } from './signed-log';

// What an auditor proves offline beside an export: that it is a prefix of a newer signed checkpoint
// (the consistency proof), and that one event is in a signed checkpoint (the inclusion proof).

const { logOf, files } = signedLogs();
const first = signingKey(ORIGIN);
const second = signingKey(ORIGIN);
const verify = (text: string, keys: string[], ...more: string[]) => verifyExport(files, text, keys, ...more);

describe('platform audit verify --checkpoint: the export is a prefix of a newer checkpoint', () => {
  it('says so with the consistency proof, and refuses a proof or a checkpoint of another log', async () => {
    const log = logOf();
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
    const rewritten = logOf();
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
    const log = logOf();
    await log.record(5);
    const proof = await log.proof(2, [first]);
    const key = saved(files, 'proof.key', first.publicKeyPem);
    const ok = await verifyProof(files, proof, key);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(
      /^OK: event PlatformSeeded #0 of test-2 at position \d+ is leaf 2 of the 5 events of the checkpoint of api\.example\.com\/audit signed at \S+\n/,
    );
    expect(ok.stdout).toMatch(/\n {2}request_id: req-2\n/);

    // The leaf rewritten: its hash no longer leads to the root.
    const leaf = Buffer.from(proof.data.leaf, 'base64').toString('utf8');
    const changed = { data: { ...proof.data, leaf: Buffer.from(leaf.replace('req-2', 'req-9')).toString('base64') } };
    expectRefused(
      await verifyProof(files, changed, key),
      /^platform: the path does not lead from event PlatformSeeded #0 of test-2/,
    );
    // A checkpoint signed by a key not given.
    const forged = {
      data: { ...proof.data, checkpoint: signedByAll(proof.data.checkpoint.split('\n\n')[0]! + '\n', [second]) },
    };
    expectRefused(
      await verifyProof(files, forged, key),
      /^platform: the proof's checkpoint does not verify: no signature by a key given/,
    );
  });
});
