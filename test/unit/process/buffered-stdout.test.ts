import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const child = (body: string) => [
  '-r',
  './test/support/load-ts.js',
  '-e',
  `const log = require('./src/log.ts').createLogger('info');\n${body}`,
];

/** The service's standard output is buffered (src/log.ts): what an operator reading it must still get. */
describe('the buffered standard output of the logs', () => {
  it('writes every line, in order, a line longer than the buffer included, by the time the process ends', () => {
    const run = spawnSync(
      process.execPath,
      child(
        `for (let i = 0; i < 5000; i++) log.info({ i }, 'line'); log.info({ long: 'x'.repeat(200000) }, 'long'); log.info('last');`,
      ),
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const lines = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { i?: number; msg: string; long?: string });
    expect(lines).toHaveLength(5002);
    expect(lines.slice(0, 5000).map((l) => l.i)).toEqual([...Array(5000).keys()]);
    expect(lines[5000]!.long).toHaveLength(200_000);
    expect(lines[5001]!.msg).toBe('last');
  });

  it('lets a line out while the process keeps running and logs nothing more', async () => {
    const proc = spawn(process.execPath, child(`log.info('up'); setTimeout(() => {}, 10_000);`), { cwd: root });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no line within the time allowed')), 5000);
        proc.stdout.once('data', (chunk: Buffer) => {
          clearTimeout(timer);
          resolve(String(chunk));
        });
      });
      expect(JSON.parse(first)).toMatchObject({ msg: 'up' });
      expect(proc.exitCode).toBeNull();
    } finally {
      proc.kill();
    }
  });
});
