import { Histogram, Registry } from 'prom-client';

/**
 * The process's one registry, and the HTTP server histogram every server of ours (api, sandbox)
 * fills: `http_server_request_duration_seconds`, OpenTelemetry's `http.server.request.duration`.
 */
export const registry = new Registry();

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const httpServerDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP server requests, by method, route template and status code.',
  labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
  buckets: HTTP_BUCKETS,
  registers: [registry],
});

/** The methods HTTP defines; anything else is `_OTHER`, as OpenTelemetry's conventions say. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

type Child = ReturnType<typeof httpServerDuration.labels>;
/** Children by their label values: prom-client would hash the label object on every observation. */
const children = new Map<string, Child>();

/** One request answered; `route` must come from a closed set (templates), never from the request. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const known = KNOWN_METHODS.has(method) ? method : '_OTHER';
  const key = `${known} ${route} ${status}`;
  let child = children.get(key);
  if (!child) children.set(key, (child = httpServerDuration.labels(known, route, String(status))));
  child.observe(seconds);
}
