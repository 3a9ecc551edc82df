import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

describe("the TypeScript client's types (clients/typescript/src/contract.ts)", () => {
  it('are generated from the committed contract, docs/openapi.json, as it is now', () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'client-types-')), 'contract.ts');
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'docs/openapi.json', '-o', fresh],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const committed = readFileSync(join(ROOT, 'clients/typescript/src/contract.ts'), 'utf8');
    // A failure here means: run `npm run client:generate` and commit clients/typescript/src/contract.ts.
    expect(committed === readFileSync(fresh, 'utf8')).toBe(true);
  });
});
