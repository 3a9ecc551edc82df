import type { Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { createHttpServer } from '../../../src/shared/http/server';
import { currentCookie } from '../../support/held-request';
import { csrfOf, startPlatform, TestPlatform } from '../../support/platform';

const BOUNDS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnectionsPerAddress: 3 };

let t: TestPlatform;
let server: Server;
beforeAll(async () => {
  t = await startPlatform({});
  server = createHttpServer(t.platform.listener(), BOUNDS);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface Connection {
  socket: Socket;
  /** Everything the service sent until it closed the connection, and how long that took. */
  closed: Promise<{ text: string; ms: number }>;
}

async function open(): Promise<Connection> {
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  const closed = new Promise<{ text: string; ms: number }>((resolve) =>
    socket.once('close', () => resolve({ text, ms: Date.now() - started })),
  );
  socket.on('error', () => undefined);
  return { socket, closed };
}

const envelopeOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: number; data: { error: string } };

describe('slow clients', () => {
  it('a client that never finishes its header lines is answered 408 and cut after HEADERS_TIMEOUT_MS', async () => {
    const slow = await open();
    slow.socket.write('GET /api/v1/livez HTTP/1.1\r\nHost: localhost\r\n');
    const { text, ms } = await slow.closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(envelopeOf(text)).toEqual({ code: 408, message: expect.any(String), data: { error: 'request_timeout' } });
    expect(ms).toBeLessThan(BOUNDS.headersTimeoutMs + 1500);
  });

  it('a client that never finishes its body is answered 408 and cut after REQUEST_TIMEOUT_MS', async () => {
    // A session and its token, so that the login reads its body instead of refusing at once.
    const client = t.client();
    const token = await csrfOf(client);
    const cookie = await currentCookie(client);
    const slow = await open();
    const headers = `Host: localhost\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\nContent-Type: application/json\r\nContent-Length: 40`;
    slow.socket.write(`POST /api/v1/developer/login HTTP/1.1\r\n${headers}\r\n\r\n{`);
    const { text, ms } = await slow.closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(BOUNDS.requestTimeoutMs + 1500);
  });

  it('one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections: the next is refused 429, then admitted once one closes', async () => {
    const held = await Promise.all([open(), open(), open()]);
    const extra = await open();
    const { text } = await extra.closed;
    expect(text).toMatch(/^HTTP\/1\.1 429 /);
    expect(text).toMatch(/\r\nRetry-After: 1\r\n/);
    expect(envelopeOf(text)).toEqual({
      code: 429,
      message: expect.stringContaining('3 connections'),
      data: { error: 'too_many_connections' },
    });

    held[0]!.socket.destroy();
    await held[0]!.closed;
    const next = await open();
    next.socket.end('GET /api/v1/livez HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect((await next.closed).text).toMatch(/^HTTP\/1\.1 200 /);
    for (const connection of held.slice(1)) connection.socket.destroy();
  });
});
