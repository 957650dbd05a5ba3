import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { Attributes, context, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { TracingSdk } from '../../platform/telemetry/tracing';
import { RequestSpan, startRequestSpan } from '../http/request-span';

/**
 * The request's server span, with tracing on. The HTTP instrumentation costs many times the tenth
 * of api CPU tracing may add: some twenty attributes worked out from the request and the socket,
 * every listener on the request and the response wrapped, and metrics beside ours. This span
 * continues the caller's `traceparent` (its sampling decision too) and carries what OpenTelemetry's
 * stable HTTP conventions require of a server span, set once when the response is done, when the
 * route template the request matched is known: it names the span
 * (`GET /v1/operations/{id}`; the method alone for a path of no route). Everything the request runs
 * (the Temporal client, fetch to the providers, log lines) finds the span in the active context,
 * which Node's AsyncLocalStorage keeps across the body's stream events. The span is a record of
 * our own, not the SDK's (api/http/request-span.ts says why).
 */
export function serverSpan(sink: TracingSdk): RequestHandler {
  // The headers the registered propagators read (`traceparent`, `tracestate`, `baggage` by default):
  // most requests carry none, and then extracting would only walk the propagators to find nothing.
  const fields = propagation.fields();
  const carriesContext = (headers: IncomingHttpHeaders) => {
    for (const field of fields) if (headers[field] !== undefined) return true;
    return false;
  };
  return (req, res, next) => {
    const parent = carriesContext(req.headers) ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
    const span = startRequestSpan(req.method, parent, sink);
    // A request left out by sampling still carries its trace on (flags 00): nothing to record.
    if (span instanceof RequestSpan) {
      // Emitted once per response, so `on`: `once` would wrap the listener, for nothing.
      res.on('close', () => {
        const url = req.originalUrl;
        const query = url.indexOf('?');
        const attributes: Attributes = { 'http.request.method': req.method, 'url.scheme': req.protocol, 'url.path': query < 0 ? url : url.slice(0, query) };
        const template = req.ctx?.route?.pathTemplate;
        if (template) {
          attributes['http.route'] = template;
          span.updateName(`${req.method} ${template}`);
        }
        if (res.headersSent) attributes['http.response.status_code'] = res.statusCode;
        // A client gone before the answer was complete is no status of ours.
        const failure = !res.writableFinished ? 'aborted' : res.statusCode >= 500 ? String(res.statusCode) : null;
        if (failure) {
          attributes['error.type'] = failure;
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.endWith(attributes);
      });
    }
    context.with(trace.setSpan(parent, span), next);
  };
}
