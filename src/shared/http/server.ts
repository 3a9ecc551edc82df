import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressKey } from './client-address';
import type { Envelope } from './envelope';

// Node's parser codes (llhttp) for the refusals a client can act on; everything else it rejects is a 400.
const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const MESSAGES: Record<number, string | undefined> = {
  400: 'the request is not valid HTTP/1.1: check the request line, the header lines and the body framing',
  408: 'the request was not received in time: send it again',
  // Node's parser counts the request line with the header lines: a URL too long lands here too.
  431: 'the request line and header lines are too large: send a shorter URL, or fewer or shorter headers',
};

const ERRORS: Record<number, string> = { 400: 'malformed_request', 408: 'request_timeout', 431: 'headers_too_large' };

/** How long a client may take, and how many connections one address may hold (docs/security.md). */
export interface ClientBounds {
  /** HEADERS_TIMEOUT_MS: from the connection (or the previous answer) to the end of the header lines. */
  headersTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: from the connection (or the previous answer) to the end of the body. */
  requestTimeoutMs: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections from one client address; 0: no cap. */
  maxConnectionsPerAddress: number;
  /** Whom the cap counts an address as (an IPv6 address by its prefix); by default the address itself. */
  addressKey?: AddressKey;
}

function answer(status: number, error: string, message: string, extra = ''): string {
  const body = JSON.stringify({ code: status, message, data: { error } } satisfies Envelope);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\n${extra}Connection: close\r\n\r\n` +
    body
  );
}

/**
 * Refuses, with a 429 in the envelope and the connection closed, a connection beyond the cap of
 * its address: a slow client holding hundreds of connections starves nobody else. Refused
 * sockets never reach the application, whatever they send before they close.
 */
function capConnectionsPerAddress(server: Server, cap: number, keyOf: AddressKey): (socket: Socket) => boolean {
  const open = new Map<string, number>();
  const refused = new WeakSet<Socket>();
  server.prependListener('connection', (socket: Socket) => {
    const address = keyOf(socket.remoteAddress ?? '');
    const held = open.get(address) ?? 0;
    if (held >= cap) {
      refused.add(socket);
      const message = `this address holds ${cap} connections to the service already: reuse them (keep-alive) or close some, then try again`;
      socket.end(answer(429, 'too_many_connections', message, 'Retry-After: 1\r\n'), () => socket.destroy());
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return (socket) => !refused.has(socket);
}

/**
 * The service's HTTP server. A request Node's HTTP parser refuses never reaches the application,
 * and Node would answer it with a bare status line: this server answers it in the envelope too,
 * then closes the connection, as the parser cannot find where the next request would start.
 */
export function createHttpServer(listener: RequestListener, bounds?: ClientBounds): Server {
  const timeouts = bounds && {
    headersTimeout: bounds.headersTimeoutMs,
    requestTimeout: bounds.requestTimeoutMs,
    // Node checks the two timeouts this often: a second late at most, not the default 30 s.
    connectionsCheckingInterval: Math.min(1000, bounds.headersTimeoutMs),
  };
  const server = createServer(timeouts ?? {});
  const admitted =
    bounds && bounds.maxConnectionsPerAddress > 0
      ? capConnectionsPerAddress(server, bounds.maxConnectionsPerAddress, bounds.addressKey ?? ((address) => address))
      : () => true;
  server.on('request', (req, res) => {
    if (admitted(req.socket)) listener(req, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client reset, or one already answered, has no one to tell.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = STATUS_BY_CODE[err.code ?? ''] ?? 400;
    socket.end(answer(status, ERRORS[status] ?? 'malformed_request', MESSAGES[status] ?? ''));
  });
  return server;
}
