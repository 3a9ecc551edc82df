import { Attributes, Context, ROOT_CONTEXT, Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';

/**
 * Spans of the service's own work (commands, projection batches). Without OTEL_EXPORTER_OTLP_ENDPOINT
 * no tracer provider is registered and these are OpenTelemetry's no-op spans. A span's parent is
 * handed down explicitly (a request's to its commands through CommandContext.trace), never through
 * an async context: AsyncLocalStorage, once used, slows every promise of the process, partner calls
 * included (docs/operations.md, "Cost").
 */
export const tracer = trace.getTracer('platform-api');

/** Marks the span failed with the error's class name: never its message, which may quote input. */
export function failed(span: Span, err: unknown): void {
  const type = err instanceof Error ? err.name : typeof err;
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** Where a span stands in its trace, for the spans started under it; the root of a new trace when absent. */
export type TraceContext = Context;

/** Runs `work` in a child span of `parent`, ended when it settles; `work` gets the context of its own children. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  parent: TraceContext | undefined,
  work: (span: Span, here: TraceContext) => Promise<T> | T,
): Promise<T> {
  const span = tracer.startSpan(name, { attributes }, parent ?? ROOT_CONTEXT);
  try {
    return await work(span, trace.setSpan(parent ?? ROOT_CONTEXT, span));
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
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
