import type { RequestHandler } from 'express';
import { Attributes, context, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { RequestSpan, SpanSink, startRequestSpan } from '../http/request-span';

/**
 * The request's server span, with tracing on. The HTTP instrumentation's own cost the operation
 * read 75 % more api CPU on a quiet machine (issue #28's bar is 10 %): some twenty attributes
 * worked out from the request and the socket, every listener on the request and the response
 * wrapped, and metrics beside ours. This span continues the caller's `traceparent` (its sampling decision too)
 * and carries what OpenTelemetry's stable HTTP conventions require of a server span, set once when
 * the response is done, when the route template the request matched is known: it names the span
 * (`GET /v1/operations/{id}`; the method alone for a path of no route). Everything the request runs
 * (the Temporal client, fetch to the providers, log lines) finds the span in the active context,
 * which Node's AsyncLocalStorage keeps across the body's stream events. The span is a record of
 * our own, not the SDK's (api/http/request-span.ts says why).
 */
export function serverSpan(sink: SpanSink): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = startRequestSpan(req.method, parent, sink);
    // A request left out by sampling still carries its trace on (flags 00): nothing to record.
    if (span instanceof RequestSpan) {
      res.once('close', () => {
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
