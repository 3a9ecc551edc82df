import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PASSWORD_LINE = /^Super administrator created: username "admin", password "([^"]+)"\. It is not shown again\.$/m;

/** A port another process holds for the test's length. */
async function occupied(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm start`'s entry point, src/main.ts, in a real process. With `whileListening` it is stopped
 * (SIGTERM) once that has run, called when the service says it listens, with its port and stderr
 * so far; the run resolves when the process has exited.
 */
async function start(
  env: NodeJS.ProcessEnv,
  whileListening?: (port: number, stderr: string) => Promise<void>,
): Promise<Run> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/load-ts.js'), join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', ADMIN_PASSWORD: '', ADDONS_DIR: join(ROOT, 'addons'), ...env },
  });
  let stdout = '';
  let stderr = '';
  const exited = once(child, 'exit');
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let listening = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const port = /"port":(\d+)[^\n]*"platform API listening"/.exec(stdout)?.[1];
    if (!whileListening || listening || port === undefined) return;
    listening = true;
    // The password is written right after that line: let it arrive.
    setTimeout(() => {
      whileListening(Number(port), stderr).finally(() => child.kill('SIGTERM'));
    }, 200);
  });
  const [code] = (await exited) as [number | null];
  return { code, stdout, stderr };
}

/** POST /admin/login with a session's CSRF token: the envelope it answers. */
async function adminLogin(port: number, password: string): Promise<unknown> {
  const api = `http://127.0.0.1:${port}/api/v1`;
  const session = await fetch(`${api}/admin/session`);
  const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!;
  const token = ((await session.json()) as { data: { csrf_token: string } }).data.csrf_token;
  const login = await fetch(`${api}/admin/login`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  return login.json();
}

describe('start-up errors (src/main.ts in a child process)', () => {
  let holder: { port: number; server: Server };
  beforeAll(async () => (holder = await occupied()));
  afterAll(() => holder.server.close());

  it('a PORT in use: one line on stderr naming PORT, exit 1, no stack trace, nothing created', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'startup-'));
    const run = await start({ DATA_DIR: dataDir, PORT: String(holder.port), METRICS_PORT: 'off' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `platform API failed to start: PORT ${holder.port} on 127.0.0.1 is in use by another process: stop that process, or set PORT to a free port\n`,
    );
    expect(run.stdout).toBe('');
    // Told before the stores are opened: no administrator, no key, not even the data directory's files.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('a METRICS_PORT in use names METRICS_PORT; no password is shown, and the next start shows the one it creates', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'startup-'));
    const failed = await start({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: String(holder.port) });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      `platform API failed to start: METRICS_PORT ${holder.port} on 127.0.0.1 is in use by another process: stop that process, or set METRICS_PORT to a free port\n`,
    );
    expect(failed.stdout).not.toMatch(/"level":(50|60)/);
    expect(failed.stdout).not.toContain('seeded the super administrator');

    let signedIn: unknown;
    const next = await start({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: 'off' }, async (port, stderr) => {
      signedIn = await adminLogin(port, PASSWORD_LINE.exec(stderr)?.[1] ?? 'no password shown');
    });
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(PASSWORD_LINE);
    expect(signedIn).toMatchObject({ code: 0, data: { username: 'admin', is_super: true } });

    const third = await start({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: 'off' }, async () => {});
    expect(third.code).toBe(0);
    expect(third.stderr).not.toMatch(PASSWORD_LINE);
  }, 60_000);
});
