import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformInProcess } from '../support/cli-in-process';
import { activePartner, Partner } from '../support/credentials';
import { startPlatform } from '../support/platform';

// The CLI reads the embedded store the service below wrote.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

const dir = mkdtempSync(join(tmpdir(), 'platform-history-escaping-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a member could type to forge an approval line in the auditor's terminal, and hide its tracks. */
const FORGERY = [
  'integration\r\n2026-01-01T00:00:00.000Z  admin admin (#1)  approved the scope addons.write',
  '\u001b[2K\u001b[1A',
  '\u001b]0;owned\u0007',
  '\u009b31m',
  '\u2028next',
].join('');

let partner: Partner;
beforeAll(async () => {
  const t = await startPlatform({}, dir);
  try {
    partner = await activePartner(t, []);
    await partner.developer
      .post('/api/v1/developer/scopes')
      .set('X-CSRF-Token', partner.member.token)
      .send({ scopes: ['addons.read'], reason: FORGERY })
      .expect(200);
  } finally {
    await t.close();
  }
});

describe('platform history, given a reason full of control characters', () => {
  it('prints each event on one line with every control character escaped', async () => {
    const run = await platformInProcess(dir, ['history', '--member', String(partner.member.id)]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    // Title, header, and one line for each of registered, applied, approved, claimed, requested.
    expect(lines).toHaveLength(2 + 5);
    // eslint-disable-next-line no-control-regex
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(lines.filter((l) => l.startsWith('2026-01-01'))).toEqual([]);
    const requested = lines.find((l) => l.includes('requested the scope addons.read'));
    expect(requested).toContain(
      'integration\\r\\n2026-01-01T00:00:00.000Z  admin admin (#1)  approved the scope addons.write',
    );
    expect(requested).toContain('\\x1b[2K\\x1b[1A\\x1b]0;owned\\x07\\x9b31m\\u2028next');
  });
});
