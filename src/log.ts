import pino, { DestinationStream, Logger } from 'pino';

/**
 * Structured JSON logs. Headers that carry secrets are redacted in case a header object is
 * ever logged; request logs name only method, path, status and duration.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
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

export type { Logger };
