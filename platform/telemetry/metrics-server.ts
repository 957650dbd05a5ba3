import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from './registry';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Text this process's scrape adds after its own registry: the Temporal runtime's metrics, which
 * its native exporter serves on a port of its own (worker/runtime.ts).
 */
export type ExtraMetrics = () => Promise<string>;

/**
 * `GET /metrics` in Prometheus's text format on a listener of its own, apart from the api's port:
 * bound to loopback by default, so nothing outside the host scrapes it unless an operator binds it
 * elsewhere (METRICS_HOST). A failing extra source costs its lines, never the scrape.
 */
export async function startMetricsServer(host: string, port: number, extras: ExtraMetrics[] = []): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    Promise.all([registry.metrics(), ...extras.map((extra) => extra().catch(() => ''))])
      .then((parts) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(parts.filter(Boolean).join('\n')))
      .catch((err: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${err.message}\n`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Exclusive: in a process of Node's cluster module the primary would otherwise share one handle
    // among the api processes, and a scrape would reach any of them.
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound.port}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
