import { trace } from '@opentelemetry/api';

/** The ids of the span active here, for log lines; none outside a traced context (or with tracing off). */
export function activeSpanIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
