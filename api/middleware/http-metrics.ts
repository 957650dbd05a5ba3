import type { RequestHandler } from 'express';
import { observeHttpRequest } from '../../platform/telemetry/registry';

const PAGES = /^\/(backoffice|docs)(?:\/|$)/i;

/**
 * The route label is the documented template the request matched, or one of the two page trees, or
 * `unmatched`: a path a client makes up never becomes a label value, so no request can add a series.
 */
function routeLabel(template: string | undefined, path: string): string {
  if (template) return template;
  const page = PAGES.exec(path);
  return page ? `/${page[1].toLowerCase()}/*` : 'unmatched';
}

/** `http_server_request_duration_seconds`, observed when the response has been sent. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      observeHttpRequest(req.method, routeLabel(req.ctx.route?.pathTemplate, req.path), res.statusCode, (performance.now() - req.ctx.startedAt) / 1000);
    });
    next();
  };
}
