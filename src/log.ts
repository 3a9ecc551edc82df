import pino, { DestinationStream, Logger } from 'pino';

/**
 * Structured JSON logs. Headers that carry secrets are redacted in case a header object is
 * ever logged; request logs name only method, path, status and duration.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStdout()): Logger {
  return pino(
    {
      level,
      base: { service: 'platform-api' },
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers["x-api-key"]',
          'res.headers["set-cookie"]',
          '*.apikey',
          '*.password',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

const BUFFER_BYTES = 64 * 1024;
const FLUSH_MS = 250;

/**
 * Standard output through a byte buffer: each line is encoded into it, and it is written (by
 * pino's sonic-boom, which retries a full pipe) when nearly full, every 250 ms, and when the
 * process exits, process.exit included. A busy service makes one write for a few hundred request
 * lines; writing each line as it came cost a partner call more than all the rest of its logging
 * (docs/performance.md). A SIGKILL can lose the last 250 ms of lines.
 */
export function bufferedStdout(): DestinationStream {
  // In buffer mode sonic-boom writes Buffers; its types know only strings.
  const out = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as {
    write(bytes: Buffer): boolean;
  };
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  // A copy: sonic-boom may keep what it was given (a write that failed), and the buffer is reused at once.
  const flush = () => {
    if (used === 0) return;
    out.write(Buffer.from(buffer.subarray(0, used)));
    used = 0;
  };
  setInterval(flush, FLUSH_MS).unref();
  process.on('exit', flush);
  return {
    write(line: string) {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      if (line.length * 3 > BUFFER_BYTES - used) {
        flush();
        if (line.length * 3 > BUFFER_BYTES) return void out.write(Buffer.from(line));
      }
      used += buffer.write(line, used);
    },
  };
}

/** The fields of the one line each request ends with. */
export interface RequestLine {
  request_id: string;
  /** Only when it matched [A-Za-z0-9._-]{1,64} (request-log.ts). */
  client_request_id: string | undefined;
  method: string;
  path: string;
  status: number;
  /** Written to the microsecond. */
  duration_ms: number;
}

/**
 * A duration in ms to the microsecond, finer than anything the line is read for: printing a
 * double's every digit costs a partner call a quarter of a microsecond more (docs/performance.md).
 */
const toMicroseconds = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * Writes the line each request ends with, in the logger's own format and to its destination, as
 * one template. Its fields are set by the service, none of them secret, and its strings are a
 * UUID, a checked client id and a method Node's parser admitted, or escaped (the path): so it needs
 * neither pino's field-by-field serialisation nor its redaction pass, which together cost a partner
 * call more than everything else it logs (docs/performance.md). request-line.test.ts holds it to
 * pino's own line for the same fields.
 */
export function requestLineWriter(log: Logger): (line: RequestLine) => void {
  if (!log.isLevelEnabled('info')) return () => {};
  // pino.symbols is pino's documented way in for integrations; its types do not index with them.
  const internals = log as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const start = `{"level":${log.levels.values.info!},"time":`;
  return ({ request_id, client_request_id, method, path, status, duration_ms }) =>
    stream.write(
      `${start}${Date.now()}${bindings},"request_id":"${request_id}",${client_request_id === undefined ? '' : `"client_request_id":"${client_request_id}",`}` +
        `"method":"${method}","path":${JSON.stringify(path)},"status":${status},"duration_ms":${toMicroseconds(duration_ms)},"msg":"request"}\n`,
    );
}

export type { Logger };
