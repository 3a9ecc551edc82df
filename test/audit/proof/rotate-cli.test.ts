import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY_ROTATED_TYPE, KEY_STREAM } from '../../../src/audit/proof/checkpoint';
import { eventually } from '../../support/eventually';
import { logInAdmin, registerMember, startPlatform } from '../../support/platform';
import { platformInProcess } from '../../support/cli-in-process';
import { signersOf } from '../support/checkpoints';

const API = '/api/v1';
const dir = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('platform audit key --rotate', () => {
  it('records the rotation as the operator, keeps the old key beside the new one, and the next checkpoint is signed by both', async () => {
    const before = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    await eventually(async () => (await signersOf(before.platform.stores.events)).length > 0, {
      within: 10_000,
      what: 'a checkpoint',
    });
    await before.close();

    const run = await platformInProcess(dir, ['audit', 'key', '--rotate']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [, previous, kept, next] = /^rotated the audit signing key: (\S+) kept as (\S+); now (\S+)\n$/.exec(
      run.stdout,
    )!;
    expect(kept).toBe(join(dir, `audit-signing-key.pem.previous-${previous!.split('+')[1]}`));
    expect(existsSync(kept!)).toBe(true);

    const after = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    const [rotation] = await after.platform.stores.events.readStream(KEY_STREAM);
    expect(rotation).toMatchObject({
      type: KEY_ROTATED_TYPE,
      data: { previous, next },
      metadata: { actor: { kind: 'cli' } },
    });
    await registerMember(after.client());
    const [oldHash, newHash] = [previous!.split('+')[1], next!.split('+')[1]];
    await eventually(async () => (await signersOf(after.platform.stores.events)).some((s) => s.length === 2), {
      within: 10_000,
      what: 'a checkpoint after the rotation',
    });
    expect((await signersOf(after.platform.stores.events)).find((s) => s.length === 2)).toEqual([oldHash, newHash]);

    const auditor = after.client();
    await logInAdmin(auditor);
    const { data } = (await auditor.get(`${API}/audit/key`).expect(200)).body as {
      data: { verifier_key: string; keys: { verifier_key: string; current: boolean }[] };
    };
    expect(data.verifier_key).toBe(next);
    expect(data.keys.map((k) => [k.verifier_key, k.current])).toEqual([
      [previous, false],
      [next, true],
    ]);
    await after.close();
  }, 60_000);
});
