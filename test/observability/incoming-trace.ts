import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { startPlatform } from '../support/platform';

/** A span's ids, its parent and its links, as OTLP/JSON carries them. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  links?: { traceId: string; spanId: string }[];
}

export const CALLERS_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
export const CALLERS_SPAN = '00f067aa0ba902b7';
const SERVER = 2;

/**
 * The server span of one GET /api/v1/developer/session sent with a client's traceparent, as the
 * service exports it. Once a file: the service's tracer binds to the first provider registered in a process.
 */
export async function serverSpanOf(trust: boolean): Promise<ExportedSpan> {
  const bodies: string[] = [];
  const collector: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const t = await startPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_TRUST_INCOMING_TRACE: trust });
    try {
      await t
        .client()
        .get('/api/v1/developer/session')
        .set('traceparent', `00-${CALLERS_TRACE}-${CALLERS_SPAN}-01`)
        .expect(200);
    } finally {
      await t.close();
    }
  } finally {
    await new Promise((resolve) => collector.close(resolve));
  }
  const spans = bodies.flatMap((b) =>
    (JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
  const linked = spans.filter(
    (s) => s.kind === SERVER && (s.traceId === CALLERS_TRACE || s.links?.some((l) => l.traceId === CALLERS_TRACE)),
  );
  expect(linked).toHaveLength(1);
  return linked[0]!;
}
