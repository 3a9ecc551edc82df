import { expectRefused } from '../../support/cli';
import { ORIGIN, signedLogs, signingKey, verifyExport } from './signed-log';

// Logs whose checkpoints are C2SP signed notes, as `platform audit verify` reads their exports.

const { logOf, files } = signedLogs();
const first = signingKey(ORIGIN);
const second = signingKey(ORIGIN);
const verify = (text: string, keys: string[], ...more: string[]) => verifyExport(files, text, keys, ...more);

const checkpointer = {
  actor: { kind: 'system' as const, id: 'audit-checkpoints' },
  request_id: 'checkpoint',
  time: '2026-12-01T00:00:00.000Z',
};

describe('checkpoints as signed notes', () => {
  it('verifies their signatures and roots, and says up to which checkpoint and when it was signed', async () => {
    const log = logOf();
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
    const log = logOf();
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
    const ours = logOf();
    const theirs = logOf('other.example.com/audit');
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
    const log = logOf();
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
    const log = logOf();
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
    const log = logOf();
    await log.record(2);
    await log.rotate(first, second);
    await log.checkpoint([second]);
    const exported = await log.exportText(second);
    expectRefused(
      await verify(exported, [first.publicKeyPem]),
      /^platform: the export does not verify: line 4: the checkpoint after the key rotation on line 3 is not signed by both the old key and the new one/,
    );
    // Signed by the old key alone: the new one never became trusted.
    const oldOnly = logOf();
    await oldOnly.record(2);
    await oldOnly.rotate(first, second);
    await oldOnly.checkpoint([first]);
    expectRefused(
      await verify(await oldOnly.exportText(first), [first.publicKeyPem]),
      /line 4: the checkpoint after the key rotation on line 3 is not signed by both the old key and the new one/,
    );
  });
});
