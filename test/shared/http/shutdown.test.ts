import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECTIONS } from '../../../src/compose';
import { seedPlatform } from '../../../src/access/seed';
import { argon2Hasher } from '../../../src/member/passwords';
import { membersProjection } from '../../../src/member/projection';
import { Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { ADMIN_PASSWORD, uniqueUsername } from '../../support/platform';
import { REGISTRY } from '../../support/registry';

/**
 * Graceful shutdown (issue 7), on the real entry points in processes of their own:
 * SIGTERM stops accepting, lets requests in flight finish, stores the projections' checkpoints and
 * exits 0; idle keep-alive connections do not hold it, and SHUTDOWN_GRACE_MS bounds the wait.
 */

const ROOT = resolve(__dirname, '../../..');

type LogLine = Record<string, unknown> & { msg: string };

interface Child {
  child: ChildProcess;
  lines: LogLine[];
  exited: Promise<number | null>;
  /** The first log line with this message, once it is written. */
  logged(msg: string): Promise<LogLine>;
}

const children: ChildProcess[] = [];
// A test that failed midway must not leave its service running.
afterAll(() => children.filter((c) => c.exitCode === null && c.signalCode === null).forEach((c) => c.kill('SIGKILL')));

/** A TypeScript entry point of this repository in a child process, its JSON log lines collected. */
function run(entry: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/load-ts.js'), ...entry], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PASSWORD, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: LogLine[] = [];
  const listeners = new Set<() => void>();
  let pending = '';
  child.stdout!.on('data', (chunk) => {
    pending += String(chunk);
    const complete = pending.split('\n');
    pending = complete.pop()!;
    lines.push(...complete.filter(Boolean).map((l) => JSON.parse(l) as LogLine));
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const logged = (msg: string) =>
    new Promise<LogLine>((found, fail) => {
      const look = () => {
        const line = lines.find((l) => l.msg === msg);
        if (line) {
          listeners.delete(look);
          found(line);
        }
      };
      listeners.add(look);
      look();
      void exited.then((code) => fail(new Error(`exited with ${code} before logging "${msg}"`)));
    });
  return { child, lines, exited, logged };
}

async function startService(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Child & { port: number }> {
  const service = run([join(ROOT, 'src/main.ts')], dataDir, env);
  const listening = await service.logged('platform API listening');
  return { ...service, port: listening.port as number };
}

interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP/1.1 connection written by hand, so that a request can stop halfway. */
class RawConnection {
  private received = Buffer.alloc(0);
  private onData = () => {};
  open = true;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.onData();
    });
    this.closed = new Promise((done) => socket.once('close', () => done()));
    void this.closed.then(() => {
      this.open = false;
      this.onData();
    });
  }

  static to(port: number): Promise<RawConnection> {
    return new Promise((done, fail) => {
      const socket = connect(port, '127.0.0.1', () => done(new RawConnection(socket)));
      socket.once('error', fail);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Bytes received so far that no answer() took. */
  get unread(): string {
    return this.received.toString('utf8');
  }

  /** The next whole answer on this connection (bodies come with a Content-Length). */
  answer(): Promise<HttpAnswer> {
    return new Promise((done, fail) => {
      this.onData = () => {
        const end = this.received.indexOf('\r\n\r\n');
        if (end >= 0) {
          const [statusLine, ...fields] = this.received.subarray(0, end).toString('latin1').split('\r\n');
          const headers = Object.fromEntries(
            fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]),
          );
          const length = Number(headers['content-length'] ?? 0);
          if (this.received.length >= end + 4 + length) {
            const body = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
            this.received = this.received.subarray(end + 4 + length);
            done({ status: Number(statusLine!.split(' ')[1]), headers, body });
            return;
          }
        }
        if (!this.open) fail(new Error(`the connection closed before a whole answer: ${JSON.stringify(this.unread)}`));
      };
      this.onData();
    });
  }
}

/** One request on a connection of its own, closed after the answer. */
async function once(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const connection = await RawConnection.to(port);
  const lines = Object.entries({ Host: 'localhost', Connection: 'close', ...headers }).map(
    ([k, v]) => `${k}: ${v}\r\n`,
  );
  connection.write(`${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  return connection.answer();
}

/** The service has read every byte sent to it before this: it answers a request sent after them. */
async function readSoFar(port: number): Promise<void> {
  expect((await once(port, 'GET', '/api/v1/livez')).status).toBe(200);
}

function refusedConnection(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** Reads the stores the process left behind. */
async function inStores<T>(dataDir: string, read: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = openSqliteStores(dataDir);
  try {
    return await read(stores);
  } finally {
    await stores.close();
  }
}

/** Every projection's stored checkpoint, expected to be the log head. */
async function checkpointsAndHead(stores: Stores) {
  const checkpoints = Object.fromEntries(
    await Promise.all(PROJECTIONS.map(async (p) => [p.name, await stores.documents.checkpoint(p.name)])),
  );
  const head = await stores.events.headPosition();
  return { checkpoints, expected: Object.fromEntries(PROJECTIONS.map((p) => [p.name, head])) };
}

describe('SIGTERM', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-shutdown-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('stops accepting, closes idle keep-alive connections, finishes the request in flight, checkpoints the projections and exits 0', async () => {
    const dir = scratch();
    const service = await startService(dir);
    const { port } = service;

    const session = await once(port, 'GET', '/api/v1/developer/session');
    const cookie = session.headers['set-cookie']!.split(';')[0]!;
    const token = JSON.parse(session.body).data.csrf_token as string;

    const idle = await RawConnection.to(port);
    idle.write('GET /api/v1/livez HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await idle.answer()).headers.connection).toBe('keep-alive');

    const username = uniqueUsername('Term');
    const body = JSON.stringify({ username, password: 'secret1', email: 'term@example.com' });
    const half = Math.floor(body.length / 2);
    const busy = await RawConnection.to(port);
    busy.write(
      `POST /api/v1/developer/register HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await readSoFar(port);

    service.child.kill('SIGTERM');
    const draining = await service.logged('not accepting connections; finishing the requests in flight');
    expect(draining.in_flight).toBe(1);
    expect(await refusedConnection(port)).toBe('ECONNREFUSED');
    await idle.closed;
    expect(busy.open).toBe(true);

    busy.write(body.slice(half));
    const registered = await busy.answer();
    expect(registered.status).toBe(200);
    expect(registered.headers.connection).toBe('close');
    const member = JSON.parse(registered.body).data as { id: number; username: string };
    expect(member).toEqual({ id: expect.any(Number), username });
    await busy.closed;

    expect(await service.exited).toBe(0);
    const messages = service.lines.map((l) => l.msg);
    expect(messages.indexOf('stopping')).toBeGreaterThan(-1);
    expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('stopping'));
    expect(service.lines.filter((l) => (l.level as number) >= 40)).toEqual([]);

    await inStores(dir, async (stores) => {
      const { checkpoints, expected } = await checkpointsAndHead(stores);
      expect(checkpoints).toEqual(expected);
      const projected = await stores.documents.get<{ username: string }>(
        membersProjection.collection.name,
        String(member.id),
      );
      expect(projected?.doc.username).toBe(username);
    });
  });

  it('cuts a request still unfinished after SHUTDOWN_GRACE_MS, and still exits 0', async () => {
    const service = await startService(scratch(), { SHUTDOWN_GRACE_MS: '300' });
    const { port } = service;
    // Admitted (session and token), so that the service waits for the rest of the body.
    const session = await once(port, 'GET', '/api/v1/developer/session');
    const cookie = session.headers['set-cookie']!.split(';')[0]!;
    const token = JSON.parse(session.body).data.csrf_token as string;
    const stuck = await RawConnection.to(port);
    stuck.write(
      `POST /api/v1/developer/register HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    );
    await readSoFar(port);

    service.child.kill('SIGTERM');
    await stuck.closed;
    expect(stuck.unread).toBe('');
    expect(await service.exited).toBe(0);
    expect(service.lines.find((l) => l.msg.startsWith('cut requests'))).toMatchObject({ cut: 1, grace_ms: 300 });
    expect(service.lines.at(-1)?.msg).toBe('stopped');
  });

  it('makes the projector store every checkpoint at the log head and exit 0', async () => {
    const dir = scratch();
    await inStores(dir, (stores) =>
      seedPlatform(
        stores.events,
        argon2Hasher(),
        ADMIN_PASSWORD,
        undefined,
        { actor: { kind: 'system', id: 'seed' }, requestId: 'seed', now: new Date() },
        REGISTRY.permissions,
      ),
    );

    const projector = run(['-e', "require('./src/project').project(process.env)"], dir);
    await projector.logged('projector running');
    projector.child.kill('SIGTERM');
    expect(await projector.exited).toBe(0);
    expect(projector.lines.at(-1)?.msg).toBe('stopped');

    const { checkpoints, expected } = await inStores(dir, checkpointsAndHead);
    expect(checkpoints).toEqual(expected);
  });
});
