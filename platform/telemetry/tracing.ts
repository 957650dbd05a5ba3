import { context } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, Sampler, SpanProcessor, TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** Which traces are recorded: OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, read by platform/config/config.ts. */
export interface SamplingSettings {
  /** A request that arrives with a `traceparent` follows its caller's decision. */
  parentBased: boolean;
  /** The share of new traces recorded, 0 to 1. */
  ratio: number;
}

/** Where spans go: OTLP/HTTP at `tracesUrl`, or nowhere (null) and then no SDK at all. */
export interface TracingSettings {
  tracesUrl: string | null;
  serviceName: string | null;
  sampling: SamplingSettings;
}

/** The process's tracing SDK as the worker's workflow span sink and the api's own server spans need it: whether to record, where a span goes when it ends, under what. */
export interface TracingSdk {
  spanProcessor: SpanProcessor;
  resource: Resource;
  sampler: Sampler;
}

export interface Tracing {
  /** Absent when tracing is off. */
  sdk: TracingSdk | null;
  shutdown(): Promise<void>;
}

/**
 * Who opens the span of an incoming request: the HTTP instrumentation, except for paths matching
 * `untraced`; or the process's own app (`'app'`: the api's api/middleware/server-span.ts), and then
 * the instrumentation leaves incoming requests alone.
 */
export type IncomingSpans = { untraced: RegExp } | 'app';

const OFF: Tracing = { sdk: null, shutdown: async () => undefined };
let started: Tracing | undefined;

function samplerOf({ parentBased, ratio }: SamplingSettings): Sampler {
  const root = ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}

/**
 * The process's OpenTelemetry SDK, once: a tracer provider exporting by OTLP/HTTP in batches, W3C
 * trace context propagation, and the instrumentations of Node's HTTP server and client (sandbox
 * requests, webhook deliveries) and of fetch (the provider adapters), which carry `traceparent` on
 * every outgoing call. Off (nothing registered, nothing patched, nothing paid on the hot path)
 * unless an OTLP endpoint is configured.
 */
export function startTracing(settings: TracingSettings, defaultServiceName: string, incoming: IncomingSpans = { untraced: /^\/metrics/ }): Tracing {
  if (started) return started;
  if (!settings.tracesUrl) return (started = OFF);
  // The provider's resource as its own spans carry it (the SDK's `telemetry.sdk.*` with our name), and
  // the very object: an exporter sends spans of one resource object together, whoever recorded them.
  const resource = Resource.default().merge(new Resource({ 'service.name': settings.serviceName ?? defaultServiceName }));
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesUrl }), { scheduledDelayMillis: 1_000 });
  const sampler = samplerOf(settings.sampling);
  const provider = new NodeTracerProvider({ resource, mergeResourceWithDefaults: false, spanProcessors: [spanProcessor], sampler });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Scrapes of the metrics listeners are not traffic worth a trace; `untraced` may add paths.
      // A request sent with tracing suppressed (the exporter's own POSTs) would get a span that records
      // nothing, after all the attribute, metric and listener work of a real one.
      new HttpInstrumentation({
        ...(incoming === 'app'
          ? { disableIncomingRequestInstrumentation: true }
          : { ignoreIncomingRequestHook: (req) => incoming.untraced.test(req.url ?? '') }),
        ignoreOutgoingRequestHook: () => isTracingSuppressed(context.active()),
      }),
      new UndiciInstrumentation(),
    ],
  });
  // The instrumentations patch a module as it is required; node:http and node:https were required
  // before this ran (by express, undici's fetch needs no patch), so they are required again here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('http'); require('https');
  started = { sdk: { spanProcessor, resource, sampler }, shutdown: () => provider.shutdown() };
  return started;
}
