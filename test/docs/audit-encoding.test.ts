/**
 * The Python sketch of docs/audit.md, "The encoding, for a verifier of your own": its canonical
 * encoding must write what the service's does, numbers included, or a verifier built from it
 * would refuse a sound export.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src/shared/domain/chain';

const doc = readFileSync(join(__dirname, '../../docs/audit.md'), 'utf8');
const sketch = /```python\n([\s\S]*?)```/.exec(
  doc.slice(doc.indexOf('### The encoding, for a verifier of your own')),
)![1]!;

const python = spawnSync('python3', ['--version']);
const withPython = python.error ? it.skip : it;
if (python.error) process.stderr.write('docs/audit.md: python3 not found, the Python sketch is not checked\n');

// Numbers around both ends of where JavaScript stops writing digits in full, and in between.
const numbers = [
  0,
  -0,
  3,
  -3,
  0.5,
  0.1,
  1 / 3,
  100,
  1e-6,
  1.5e-6,
  1e-7,
  1.5e-7,
  -2.5e-8,
  5e-324,
  123.456,
  1e15,
  1e16,
  2 ** 53 + 2,
  1.2345e20,
  1e21,
  1.5e21,
  -1e22,
  Number.MAX_VALUE,
];
const values: unknown[] = [
  ...numbers,
  { b: [1e-7, 'é', null, true], a: { z: 1e21, y: 'line\nbreak "quoted" \u0001' } },
  {
    kind: 'export',
    from: '',
    next: '00000000000000000042',
    count: 41,
    more: false,
    root: 'ab',
    signed_at: '2026-11-27T21:30:00.000Z',
  },
];

describe("docs/audit.md's Python sketch", () => {
  withPython('encodes every value as the service does, numbers as Number#toString writes them', () => {
    const run = spawnSync('python3', ['-c', `${sketch}\nfor line in sys.stdin: print(canonical(json.loads(line)))`], {
      input: values.map((v) => JSON.stringify(v)).join('\n'),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n')).toEqual(values.map((v) => canonicalJson(JSON.parse(JSON.stringify(v)))));
  });
});
