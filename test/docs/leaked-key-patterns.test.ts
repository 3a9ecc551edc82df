import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatApiKey, isWellFormedApiKey } from '../../src/credential/api-key';

const ROOT = join(__dirname, '../..');
const page = readFileSync(join(ROOT, 'docs/credentials.md'), 'utf8');

// The two patterns docs/credentials.md publishes: GitHub's registration, and the gitleaks rule.
const registered = new RegExp(/Send GitHub the type name[\s\S]*?```\n(.+)\n```/.exec(page)![1]!, 'g');
const gitleaks = new RegExp(/^regex = '''(.+)'''$/m.exec(page)![1]!, 'g');

const keys = Array.from({ length: 200 }, () => formatApiKey(randomBytes(32)));

/** Every text file of the repository's own code, tests and docs: the corpus no other string of must match. */
function* corpus(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* corpus(path);
    else if (/\.(ts|tsx|js|mjs|json|md|yml|go)$/.test(name)) yield readFileSync(path, 'utf8');
  }
}

describe('the published patterns of a leaked key', () => {
  it('the gitleaks rule finds each issued key as its secret, wherever it stands in a line', () => {
    for (const key of keys) {
      for (const text of [`API_KEY=${key}\n`, `"${key}"`, `key: ${key}`, key]) {
        const found = [...text.matchAll(gitleaks)].map((match) => match[1]);
        expect(found).toEqual([key]);
      }
    }
  });

  it('the pattern registered with GitHub matches each issued key whole', () => {
    for (const key of keys) expect(key.match(registered)).toEqual([key]);
  });

  it('matches no other string of this repository: every match is a well-formed key', () => {
    let files = 0;
    for (const dir of ['src', 'test', 'docs', 'web/src', 'bench', 'clients']) {
      for (const text of corpus(join(ROOT, dir))) {
        files += 1;
        for (const match of text.matchAll(gitleaks)) expect(isWellFormedApiKey(match[1]!)).toBe(true);
      }
    }
    expect(files).toBeGreaterThan(500);
  });

  it('does not take a key cut short or run on for one', () => {
    const key = keys[0]!;
    expect(`${key.slice(0, -1)} `.match(gitleaks)).toBeNull();
    expect([...`${key}x `.matchAll(gitleaks)]).toEqual([]);
  });
});
