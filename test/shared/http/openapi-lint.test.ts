import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { platformContract } from '../../../src/app';

const ROOT = resolve(__dirname, '../../..');

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

describe('the served contract, linted with Spectral (spectral:oas)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'platform-spectral-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no error, warning, information or hint', async () => {
    const contract = join(dir, 'openapi.json');
    const report = join(dir, 'report.json');
    writeFileSync(contract, JSON.stringify(platformContract()));
    const cli = require.resolve('@stoplight/spectral-cli/dist/index.js');
    const lint = promisify(execFile)(
      process.execPath,
      [
        cli,
        'lint',
        '--ruleset',
        join(ROOT, '.spectral.yaml'),
        '--format',
        'json',
        '--output',
        report,
        '--fail-severity',
        'hint',
        contract,
      ],
      { cwd: ROOT },
    );
    // Spectral exits non-zero when it finds anything: the report says what.
    await lint.catch(() => undefined);
    const findings = (JSON.parse(readFileSync(report, 'utf8')) as Finding[]).map(
      (f) => `${f.code} at ${f.path.join('.')}: ${f.message}`,
    );
    expect(findings).toEqual([]);
  });
});
