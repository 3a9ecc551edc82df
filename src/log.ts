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
        paths: ['req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]', '*.apikey', '*.password'],
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
  const out = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as { write(bytes: Buffer): boolean };
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  // Synchronous: sonic-boom has copied or written the bytes when write returns, so the buffer is free again.
  const flush = () => {
    if (used === 0) return;
    out.write(buffer.subarray(0, used));
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

/**
 * The logger of the one line each request ends with. Its fields are fixed by the code that logs
 * it (ids, method, path, status, duration), none of them secret, so it skips the redaction pass,
 * which costs more than building and writing the line.
 */
export function requestLineLogger(log: Logger): Logger {
  return log.child({}, { redact: { paths: [] } });
}

export type { Logger };
