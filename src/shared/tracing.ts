import { Attributes, Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';

/**
 * Spans of the service's own work (commands, projection batches). Without OTEL_EXPORTER_OTLP_ENDPOINT
 * no tracer provider is registered and these are OpenTelemetry's no-op spans.
 */
export const tracer = trace.getTracer('platform-api');

/** Marks the span failed with the error's class name: never its message, which may quote input. */
export function failed(span: Span, err: unknown): void {
  const type = err instanceof Error ? err.name : typeof err;
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** Runs `work` in a child span of the active one, ended when it settles. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T> | T): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** One span over a run of work that ends at a moment of its own (a projection batch: its first event to its write). */
export function batchSpans(name: string, countAttribute: string) {
  let span: Span | undefined;
  return {
    begin: () => void (span ??= tracer.startSpan(name)),
    end(count: number) {
      if (!span) return;
      span.setAttribute(countAttribute, count);
      span.end();
      span = undefined;
    },
  };
}
