import { ChildProcess, spawn } from 'node:child_process';
import { connect, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { PROJECTIONS } from '../../../src/compose';
import { Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { ADMIN_PASSWORD } from '../../support/platform';

/** The service and the projector as processes of their own, for the shutdown tests: started, read, signalled. */

const ROOT = resolve(__dirname, '../../..');

type LogLine = Record<string, unknown> & { msg: string };

export interface Child {
  child: ChildProcess;
  lines: LogLine[];
  exited: Promise<number | null>;
  /** The first log line with this message, once it is written. */
  logged(msg: string): Promise<LogLine>;
}

const children: ChildProcess[] = [];
/** For afterAll: a test that failed midway must not leave its service running. */
export const killLeftovers = () =>
  children.filter((c) => c.exitCode === null && c.signalCode === null).forEach((c) => c.kill('SIGKILL'));

/** A TypeScript entry point of this repository in a child process, its JSON log lines collected. */
export function run(entry: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Child {
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

export async function startService(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Child & { port: number }> {
  const service = run([join(ROOT, 'src/main.ts')], dataDir, env);
  const listening = await service.logged('platform API listening');
  return { ...service, port: listening.port as number };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP/1.1 connection written by hand, so that a request can stop halfway. */
export class RawConnection {
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
export async function once(
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
export async function readSoFar(port: number): Promise<void> {
  expect((await once(port, 'GET', '/api/v1/livez')).status).toBe(200);
}

export function refusedConnection(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** Reads the stores the process left behind. */
export async function inStores<T>(dataDir: string, read: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = openSqliteStores(dataDir);
  try {
    return await read(stores);
  } finally {
    await stores.close();
  }
}

/** Every projection's stored checkpoint, expected to be the log head. */
export async function checkpointsAndHead(stores: Stores) {
  const checkpoints = Object.fromEntries(
    await Promise.all(PROJECTIONS.map(async (p) => [p.name, await stores.documents.checkpoint(p.name)])),
  );
  const head = await stores.events.headPosition();
  return { checkpoints, expected: Object.fromEntries(PROJECTIONS.map((p) => [p.name, head])) };
}
