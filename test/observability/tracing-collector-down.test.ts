import request from 'supertest';
import { closedPort } from '../support/black-hole';
import { activePartner } from '../support/credentials';
import { startPlatform } from '../support/platform';

// A file of its own: the service's tracer binds to the first tracer provider of the process, and
// tracing.test.ts has started and stopped one already.
describe('traces, with the collector down', () => {
  it('leave the service answering, and its stop complete: the spans still buffered are dropped with a warning', async () => {
    const t = await startPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    let closed = false;
    try {
      await request(t.server).get('/api/v1/readyz').expect(200);
      await activePartner(t);
    } finally {
      await t.close();
      closed = true;
    }
    // A stop cut short by the failed flush would have left the stores open, and close() rejected.
    expect(closed).toBe(true);
    const warnings = t.logLines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toContainEqual(expect.stringContaining('spans'));
  });
});
