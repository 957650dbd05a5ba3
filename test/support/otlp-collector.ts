import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
  attributes: Record<string, unknown>;
  /** The instrumentation scope that recorded it. */
  scope: string;
  /** W3C `tracestate` carried on, '' without one. */
  traceState: string;
  /** Wall-clock times, nanoseconds since the epoch. */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };

const plain = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));

/**
 * A stand-in for an OpenTelemetry collector: it takes OTLP/HTTP JSON exports on `/v1/traces` and
 * keeps every span with the service that sent it. The outside party of a tracing test, as the
 * sandbox is for providers.
 */
export class OtlpCollector {
  private constructor(private readonly server: Server, readonly url: string, readonly spans: CollectedSpan[]) {}

  static async start(): Promise<OtlpCollector> {
    const spans: CollectedSpan[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
            const service = String(plain(resourceSpans.resource?.attributes)['service.name']);
            for (const scope of resourceSpans.scopeSpans ?? []) {
              for (const span of scope.spans ?? []) {
                spans.push({
                  service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, kind: span.kind,
                  status: span.status?.code ?? 0, attributes: plain(span.attributes), scope: scope.scope?.name ?? '', traceState: span.traceState ?? '',
                  startTimeUnixNano: BigInt(span.startTimeUnixNano), endTimeUnixNano: BigInt(span.endTimeUnixNano),
                });
              }
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return new OtlpCollector(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans);
  }

  inTrace(traceId: string): CollectedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
