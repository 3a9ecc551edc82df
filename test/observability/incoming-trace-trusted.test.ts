import { CALLERS_SPAN, CALLERS_TRACE, serverSpanOf } from './incoming-trace';

it("adopts a client's traceparent as the parent with OTEL_TRUST_INCOMING_TRACE=true", async () => {
  const span = await serverSpanOf(true);
  expect(span).toMatchObject({ traceId: CALLERS_TRACE, parentSpanId: CALLERS_SPAN });
});
