import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The active trace as a W3C `traceparent`, to store beside work another process picks up later;
 * null outside a trace or with tracing off (no propagator registered).
 */
export function activeTraceparent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Runs `fn` as a continuation of the stored trace (its spans become that trace's), or as it is without one. */
export function continueTrace<T>(traceparent: string | null, fn: () => T): T {
  if (!traceparent) return fn();
  return context.with(propagation.extract(ROOT_CONTEXT, { traceparent }), fn);
}
