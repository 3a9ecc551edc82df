import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real `platform` command line, as a user runs it, with `stdin` as its whole input. */
export function platform(dataDir: string, args: string[], stdin = ''): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'test/support/load-ts.js'), join(ROOT, 'src/cli.ts'), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  child.stdin.end(stdin);
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A refusal: exit code 1 and one line on stderr saying why, never a stack trace. */
export function expectRefused(run: Run, reason: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr).toMatch(reason);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
}
