import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/**
 * A real child process: what is under test is that Node exits, non-zero, after the log line, which
 * no in-process test can observe without replacing process.exit.
 */
function runChild(body: string) {
  const script = `
    const { createLogger } = require('./src/log.ts');
    const { exitOnUnhandled } = require('./src/fatal.ts');
    exitOnUnhandled(createLogger('info'));
    ${body}
    setTimeout(() => process.stdout.write('STILL RUNNING\\n'), 2000);
  `;
  const child = spawnSync(process.execPath, ['-r', './test/support/load-ts.js', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = child.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: child.status, stdout: child.stdout, lines };
}

describe('process-level failure handler', () => {
  it('logs an unhandled rejection and exits non-zero', () => {
    const { status, stdout, lines } = runChild(`Promise.reject(new Error('late append response'));`);
    expect(status).toBe(1);
    expect(stdout).not.toContain('STILL RUNNING');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        msg: 'unhandled promise rejection; exiting for the supervisor to restart the process',
        err: expect.objectContaining({ message: 'late append response' }),
      }),
    ]);
  });

  it('logs an uncaught exception and exits non-zero', () => {
    const { status, stdout, lines } = runChild(
      `setImmediate(() => { throw new TypeError('undefined is not iterable'); });`,
    );
    expect(status).toBe(1);
    expect(stdout).not.toContain('STILL RUNNING');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        msg: 'uncaught exception; exiting for the supervisor to restart the process',
        origin: 'uncaughtException',
        err: expect.objectContaining({ type: 'TypeError', message: 'undefined is not iterable' }),
      }),
    ]);
  });

  it('leaves a process without such failures running', () => {
    const { status, stdout } = runChild(`setTimeout(() => process.exit(0), 2100);`);
    expect(status).toBe(0);
    expect(stdout).toContain('STILL RUNNING');
  });
});
