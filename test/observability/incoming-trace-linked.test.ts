import { CALLERS_SPAN, CALLERS_TRACE, serverSpanOf } from './incoming-trace';

it("links a client's traceparent without adopting it: the request starts a trace of its own", async () => {
  const span = await serverSpanOf(false);
  expect(span.traceId).not.toBe(CALLERS_TRACE);
  expect(span.parentSpanId ?? '').toBe('');
  expect(span.links).toEqual([expect.objectContaining({ traceId: CALLERS_TRACE, spanId: CALLERS_SPAN })]);
});
