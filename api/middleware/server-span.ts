import type { RequestHandler } from 'express';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The request's server span, with tracing on. The HTTP instrumentation's own cost the operation
 * read 75 % more api CPU on a quiet machine (issue #28's bar is 10 %): some twenty attributes
 * worked out from the request and the socket, every listener on the request and the response
 * wrapped, and metrics beside ours. This span continues the caller's `traceparent` (its sampling decision too)
 * and carries what OpenTelemetry's stable HTTP conventions require of a server span, set once when
 * the response is done, when the route template the request matched is known: it names the span
 * (`GET /v1/operations/{id}`; the method alone for a path of no route). Everything the request runs
 * (the Temporal client, fetch to the providers, log lines) finds the span in the active context,
 * which Node's AsyncLocalStorage keeps across the body's stream events.
 */
export function serverSpan(): RequestHandler {
  const tracer = trace.getTracer('receivables-api');
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER }, parent);
    // A request left out by sampling still carries its trace on (flags 00): nothing to record.
    if (span.isRecording()) {
      res.once('close', () => {
        const url = req.originalUrl;
        const query = url.indexOf('?');
        // One call per attribute, not setAttributes: no object spread and no walk of its entries, the attributes being the span's dearest part.
        span.setAttribute('http.request.method', req.method)
          .setAttribute('url.scheme', req.protocol)
          .setAttribute('url.path', query < 0 ? url : url.slice(0, query));
        const template = req.ctx?.route?.pathTemplate;
        if (template) span.setAttribute('http.route', template).updateName(`${req.method} ${template}`);
        if (res.headersSent) span.setAttribute('http.response.status_code', res.statusCode);
        // A client gone before the answer was complete is no status of ours.
        const failure = !res.writableFinished ? 'aborted' : res.statusCode >= 500 ? String(res.statusCode) : null;
        if (failure) span.setAttribute('error.type', failure).setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
    }
    context.with(trace.setSpan(parent, span), next);
  };
}
