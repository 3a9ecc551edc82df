import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { activePartner, openCall } from '../support/credentials';
import { startPlatform, TestPlatform } from '../support/platform';

/** A span as OTLP/JSON carries it, attributes flattened to their values. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
};

const valueOf = (v: OtlpValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.arrayValue?.values.map(valueOf)));

function spansOf(body: string): ExportedSpan[] {
  const payload = JSON.parse(body) as {
    resourceSpans: {
      scopeSpans: {
        spans: (Omit<ExportedSpan, 'attributes'> & { attributes?: { key: string; value: OtlpValue }[] })[];
      }[];
    }[];
  };
  return payload.resourceSpans.flatMap((r) =>
    r.scopeSpans.flatMap((s) =>
      s.spans.map((span) => ({
        ...span,
        attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
      })),
    ),
  );
}

/** A plain loopback HTTP server standing in for an OpenTelemetry collector: it keeps what is posted to /v1/traces. */
async function otlpReceiver(): Promise<{
  server: Server;
  url: string;
  exports: { path: string; type: string; body: string }[];
}> {
  const exports: { path: string; type: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({
        path: req.url ?? '',
        type: String(req.headers['content-type']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}

describe('traces, with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let spans: ExportedSpan[];
  let requestId: string;
  let laneRequestId: string;
  let apikey: string;
  let apiid: string;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    const t: TestPlatform = await startPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    try {
      const partner = await activePartner(t);
      ({ apikey, apiid } = partner);
      laneRequestId = (await openCall(t, '/open/addons', apiid, apikey).expect(200)).headers['x-request-id'] as string;
      const res = await request(t.server)
        .get('/api/v1/credentials/42/history?as_of=x')
        .set('X-API-Key', apikey)
        .expect(401);
      requestId = res.headers['x-request-id'] as string;
    } finally {
      // Closing flushes the spans still buffered.
      await t.close();
    }
    spans = receiver.exports.flatMap((e) => spansOf(e.body));
  });
  afterAll(() => new Promise((resolve) => receiver.server.close(resolve)));

  it('are exported over OTLP/HTTP to <endpoint>/v1/traces', () => {
    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(receiver.exports.map((e) => e.path)).toEqual(receiver.exports.map(() => '/v1/traces'));
    expect(spans.length).toBeGreaterThan(10);
  });

  it("have a server span per request, named by its route template, with the semantic conventions' attributes and the request id", () => {
    const server = spans.filter((s) => s.kind === 2);
    const history = server.find((s) => s.attributes['platform.request_id'] === requestId);
    expect(history).toMatchObject({
      name: 'GET /api/v1/credentials/{member_id}/history',
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/v1/credentials/{member_id}/history',
        'http.response.status_code': 401,
        'url.path': '/api/v1/credentials/42/history',
      },
    });
    // The partner lane's answers too, ahead of koa, with the request id the partner was answered.
    expect(laneRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.find((s) => s.name === 'GET /api/v1/open/addons')?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'platform.request_id': laneRequestId,
    });
  });

  it('have a child span per command, with its read, decide and append', () => {
    const claim = spans.find((s) => s.name === 'ClaimCredential')!;
    expect(claim).toBeDefined();
    const request = spans.find((s) => s.spanId === claim.parentSpanId)!;
    expect(request.name).toBe('POST /api/v1/developer/claim');
    expect(claim.attributes['platform.request_id']).toBe(request.attributes['platform.request_id']);
    const children = spans.filter((s) => s.parentSpanId === claim.spanId).map((s) => s.name);
    expect(children).toEqual(expect.arrayContaining(['read', 'decide', 'append']));
  });

  it('have a span per projection batch', () => {
    const batches = spans.filter((s) => s.name === 'projection batch');
    expect(batches.length).toBeGreaterThan(0);
    expect(Math.max(...batches.map((s) => Number(s.attributes['platform.projection.events'])))).toBeGreaterThan(0);
  });

  it('never carry an API key, an API id in a query, or a secret in any attribute', () => {
    const exported = receiver.exports.map((e) => e.body).join('\n');
    expect(exported).not.toContain(apikey);
    expect(exported).not.toContain(apikey.slice(3, 30));
    expect(exported).not.toContain('as_of=x');
    expect(exported).not.toMatch(/admin-secret|secret1/);
  });
});
