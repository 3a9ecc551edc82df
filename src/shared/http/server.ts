import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
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

/**
 * The service's HTTP server. A request Node's HTTP parser refuses never reaches the application,
 * and Node would answer it with a bare status line: this server answers it in the envelope too,
 * then closes the connection, as the parser cannot find where the next request would start.
 */
export function createHttpServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client reset, or one already answered, has no one to tell.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = STATUS_BY_CODE[err.code ?? ''] ?? 400;
    const body = JSON.stringify({ code: status, message: MESSAGES[status] ?? '', data: { error: ERRORS[status] } } satisfies Envelope);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
  return server;
}
