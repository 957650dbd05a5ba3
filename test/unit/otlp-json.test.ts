import { expect } from 'chai';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, TraceState } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, ReadableSpan, Sampler, SamplingDecision, SimpleSpanProcessor, SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { RequestSpan, startRequestSpan } from '../../api/http/request-span';
import { BatchLimits, bodyExporter, OtlpJsonBatches } from '../../db/telemetry/otlp-json-batches';
import { OtlpCollector } from '../support/otlp-collector';

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceState: new TraceState('vendor=opaque') };
const LIMITS: BatchLimits = { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 60_000, exportTimeoutMillis: 30_000 };

/** Records ended spans without exporting them, to hand the very same spans to both exporters. */
class Kept implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void { this.spans.push(span); }
  forceFlush(): Promise<void> { return Promise.resolve(); }
  shutdown(): Promise<void> { return Promise.resolve(); }
}

/** The api's request spans and the SDK's own spans of one resource and scope, every member of OTLP's span used. */
function spansOfEveryShape(): ReadableSpan[] {
  const kept = new Kept();
  const resource = new Resource({ 'service.name': 'otlp-json-test', 'service.instance.id': 'a "quoted" \u2028 id', 'host.cpus': 2 });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [kept] });
  const sink = { sampler: new AlwaysOnSampler(), spanProcessor: kept, resource: provider.resource };
  const parent = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.SAMPLED });
  const read = startRequestSpan('GET', ROOT_CONTEXT, sink) as RequestSpan;
  read.updateName('GET /v1/operations/{id}');
  read.endWith({
    'http.request.method': 'GET', 'url.scheme': 'http', 'url.path': '/v1/operations/op_1', 'http.route': '/v1/operations/{id}', 'http.response.status_code': 200,
  });
  const failed = startRequestSpan('POST', parent, sink) as RequestSpan;
  failed.addEvent('body read', { bytes: 120, ratio: 0.25, whole: true, tags: ['a', 'é'], counts: [1, 2.5], empty: [] });
  failed.addEvent('no attributes');
  failed.recordException(Object.assign(new TypeError('bad "input"\n\tline'), { code: 'E_BAD' }));
  failed.addLink({ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, traceState: new TraceState('x=1,y=2') }, attributes: { why: 'relay' } });
  failed.addLink({ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: TraceFlags.NONE } });
  failed.setStatus({ code: SpanStatusCode.ERROR, message: 'failed: "quoted" ☃ \u0001' });
  failed.endWith({
    'http.request.method': 'POST', 'url.path': '/v1/operations/\u00e9\u{1F600}"\\/\u2028?', 'http.response.status_code': 500, 'error.type': '500',
    nothing: undefined as unknown as string, huge: 2 ** 60, negative: -3, fraction: -0.5, notANumber: Number.NaN,
  });
  const tracer = provider.getTracer('receivables-api');
  const sdkSpan = tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: { 'url.path': '/health' } }, parent);
  sdkSpan.setStatus({ code: SpanStatusCode.OK });
  sdkSpan.end();
  const client = tracer.startSpan('outbox dispatch', { kind: SpanKind.INTERNAL });
  client.end([1_764_123_456, 999_999_999]);
  return kept.spans;
}

function sdkExport(url: string, spans: ReadableSpan[]): Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces` });
  return new Promise((resolve, reject) => exporter.export(spans, (result) => (result.code === ExportResultCode.SUCCESS ? resolve() : reject(result.error))));
}

describe('the api\'s request spans written as OTLP/HTTP JSON (db/telemetry/otlp-json*.ts)', () => {
  let collector: OtlpCollector;
  beforeEach(async () => { collector = await OtlpCollector.start(); });
  afterEach(() => collector.close());

  it('sends a collector byte for byte what the SDK\'s OTLP/HTTP exporter sends for the same spans, with its headers', async () => {
    const spans = spansOfEveryShape();
    await sdkExport(collector.url, spans);
    const others = new Kept();
    const ours = new OtlpJsonBatches(bodyExporter(`${collector.url}/v1/traces`), LIMITS, others, () => undefined);
    for (const span of spans) ours.onEnd(span);
    await ours.shutdown();

    expect(others.spans).to.deep.equal([]);
    expect(collector.exports).to.have.length(2);
    const [fromSdk, fromOurs] = collector.exports;
    expect(fromOurs.body).to.equal(fromSdk.body);
    expect(fromOurs.userAgent).to.equal(fromSdk.userAgent).and.match(/^OTel-OTLP-Exporter-JavaScript\//);
    expect(fromOurs.contentType).to.equal(fromSdk.contentType);
    expect(collector.spans.slice(spans.length).map((span) => span.name)).to.deep.equal(spans.map((span) => span.name));
  });

  it('sends batches of the batch size, each as the SDK would send those spans, and flushes the rest on shutdown', async () => {
    const spans = spansOfEveryShape();
    const ours = new OtlpJsonBatches(bodyExporter(`${collector.url}/v1/traces`), { ...LIMITS, maxExportBatchSize: 3 }, new Kept(), () => undefined);
    for (const span of spans) ours.onEnd(span);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(collector.exports, 'a full batch goes at once, the rest waits for the delay').to.have.length(1);
    await ours.shutdown();
    const received = collector.exports.map(({ body }) => body);
    await sdkExport(collector.url, spans.slice(0, 3));
    await sdkExport(collector.url, spans.slice(3));
    expect(received).to.deep.equal(collector.exports.slice(2).map(({ body }) => body));
  });

  it('drops and counts spans beyond the queue while an export is under way, and sends the rest', async () => {
    const once = spansOfEveryShape();
    const spans = [...once, ...once];
    let dropped = 0;
    const ours = new OtlpJsonBatches(bodyExporter(`${collector.url}/v1/traces`), { ...LIMITS, maxQueueSize: 2, maxExportBatchSize: 2 }, new Kept(), () => { dropped++; });
    for (const span of spans) ours.onEnd(span);
    expect(dropped, 'two sent at once, two queued, the other four over the queue').to.equal(4);
    await ours.shutdown();
    expect(collector.spans.map((span) => span.name)).to.deep.equal(spans.slice(0, 4).map((span) => span.name));
  });

  it('hands spans of another resource or scope to the SDK\'s processor, and unsampled ones to nobody', async () => {
    const [first, ...rest] = spansOfEveryShape();
    const exported = new InMemorySpanExporter();
    const ours = new OtlpJsonBatches(bodyExporter(`${collector.url}/v1/traces`), LIMITS, new SimpleSpanProcessor(exported), () => undefined);
    ours.onEnd(first);
    const elsewhere = new BasicTracerProvider({ resource: new Resource({ 'service.name': 'elsewhere' }), spanProcessors: [ours] });
    elsewhere.getTracer('receivables-api').startSpan('other resource').end();
    const recordedOnly: Sampler = { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => 'recorded, not sampled' };
    const unsampled = new BasicTracerProvider({ resource: first.resource, sampler: recordedOnly, spanProcessors: [ours] });
    unsampled.getTracer('receivables-api').startSpan('unsampled').end();
    for (const span of rest) ours.onEnd(span);
    await ours.shutdown();
    expect(exported.getFinishedSpans().map((span) => span.name)).to.deep.equal(['other resource']);
    expect(collector.spans.map((span) => span.name)).to.deep.equal([first, ...rest].map((span) => span.name));
  });
});
