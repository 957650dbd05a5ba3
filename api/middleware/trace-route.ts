import type { RequestHandler } from 'express';
import { trace } from '@opentelemetry/api';

/**
 * Names the request's server span after its route template, as OpenTelemetry's HTTP conventions
 * want (`POST /v1/operations/direct`, attribute `http.route`): the HTTP instrumentation sees only
 * the raw path. Nothing to do with tracing off.
 */
export function traceRoute(): RequestHandler {
  return (req, _res, next) => {
    const span = trace.getActiveSpan();
    const template = req.ctx.route?.pathTemplate;
    if (span && template) {
      span.setAttribute('http.route', template);
      span.updateName(`${req.method} ${template}`);
    }
    next();
  };
}
