import type { RequestHandler } from 'express';
import { httpServerDuration } from '../../db/telemetry/metrics';

/** The methods HTTP defines; anything else is `_OTHER`, as OpenTelemetry's conventions say. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
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

type Child = ReturnType<typeof httpServerDuration.labels>;
/** Children by their label values: prom-client would hash the label object on every observation. */
const children = new Map<string, Child>();

function child(method: string, route: string, status: number): Child {
  const key = `${method} ${route} ${status}`;
  let found = children.get(key);
  if (!found) children.set(key, (found = httpServerDuration.labels(method, route, String(status))));
  return found;
}

/** `http_server_request_duration_seconds`, observed when the response has been sent. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
      child(method, routeLabel(req.ctx.route?.pathTemplate, req.path), res.statusCode).observe((performance.now() - req.ctx.startedAt) / 1000);
    });
    next();
  };
}
