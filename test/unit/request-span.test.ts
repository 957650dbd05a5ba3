import { expect } from 'chai';
import { ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, ParentBasedSampler, ReadableSpan, Sampler, SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { RequestSpan, startRequestSpan } from '../../api/http/request-span';

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceState: new TraceState('vendor=opaque') };

/** The SDK's own tracer and our record, both ending in one in-memory exporter through the SDK's processor. */
function sdkAndRecord(sampler: Sampler) {
  const exporter = new InMemorySpanExporter();
  const spanProcessor = new SimpleSpanProcessor(exporter);
  const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': 'request-span-test' }), sampler, spanProcessors: [spanProcessor] });
  return { exporter, tracer: provider.getTracer('receivables-api'), sink: { sampler, spanProcessor, resource: provider.resource } };
}

/** What an exporter reads of a finished span, its random span id and its clock readings aside. */
function exported(span: ReadableSpan) {
  const { traceId, traceFlags, traceState } = span.spanContext();
  return {
    name: span.name, kind: span.kind, traceId, traceFlags, traceState: traceState?.serialize(), parentSpanId: span.parentSpanId,
    attributes: span.attributes, status: span.status, links: span.links, ended: span.ended,
    events: span.events.map(({ name, attributes, droppedAttributesCount }) => ({ name, attributes, droppedAttributesCount })),
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
    scope: span.instrumentationLibrary.name, resource: span.resource.attributes,
  };
}

describe('the api\'s server span record (api/http/request-span.ts), as the SDK\'s exporters read it', () => {
  it('exports what the SDK\'s own span exports for the same calls', () => {
    const { exporter, tracer, sink } = sdkAndRecord(new AlwaysOnSampler());
    const parent = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.SAMPLED });
    const link = { context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED }, attributes: { why: 'relay' } };
    const failure = Object.assign(new TypeError('bad input'), { code: 'E_BAD' });
    const exercise = (span: Span) => {
      span.setAttribute('earlier', 1);
      span.addEvent('body read', { bytes: 120 });
      span.recordException(failure);
      span.recordException('plain words');
      span.addLink(link);
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
      span.updateName('GET /v1/operations/{id}');
    };
    const sdkSpan = tracer.startSpan('GET', { kind: SpanKind.SERVER }, parent);
    exercise(sdkSpan);
    sdkSpan.setAttributes({ 'http.route': '/v1/operations/{id}', 'http.response.status_code': 500 });
    sdkSpan.end();
    const record = startRequestSpan('GET', parent, sink);
    expect(record).to.be.an.instanceOf(RequestSpan);
    exercise(record);
    (record as RequestSpan).endWith({ 'http.route': '/v1/operations/{id}', 'http.response.status_code': 500 });
    record.setAttribute('after the end', true);

    const [fromSdk, ours] = exporter.getFinishedSpans();
    expect(exported(ours)).to.deep.equal(exported(fromSdk));
    expect(ours.spanContext().spanId).to.match(/^[0-9a-f]{16}$/).and.not.equal(CALLER.spanId);
    expect(ours.events.map((event) => event.attributes?.['exception.type'])).to.deep.equal([undefined, 'E_BAD', undefined]);
  });

  it('starts on the wall clock and measures its duration on the monotonic one, as the SDK\'s span does', async () => {
    const { exporter, sink } = sdkAndRecord(new AlwaysOnSampler());
    const before = Date.now();
    const record = startRequestSpan('GET', ROOT_CONTEXT, sink) as RequestSpan;
    await new Promise((resolve) => setTimeout(resolve, 20));
    record.endWith({});
    const after = Date.now();
    const [span] = exporter.getFinishedSpans();
    const millis = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    expect(millis(span.startTime)).to.be.within(before - 1, after);
    expect(millis(span.endTime)).to.be.within(millis(span.startTime) + 19, after + 1);
    expect(millis(span.duration)).to.be.closeTo(millis(span.endTime) - millis(span.startTime), 0.001);
    expect(span.parentSpanId, 'a new trace').to.equal(undefined);
  });

  it('records nothing when the sampler leaves the request out, and still carries its ids on', () => {
    const { exporter, sink } = sdkAndRecord(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    const fresh = startRequestSpan('GET', ROOT_CONTEXT, sink);
    const unsampledCaller = startRequestSpan('GET', trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.NONE }), sink);
    for (const span of [fresh, unsampledCaller]) {
      expect(span).to.not.be.an.instanceOf(RequestSpan);
      expect(span.isRecording()).to.equal(false);
      expect(span.spanContext().traceFlags).to.equal(TraceFlags.NONE);
      span.end();
    }
    expect(unsampledCaller.spanContext().traceId).to.equal(CALLER.traceId);
    expect(trace.isSpanContextValid(fresh.spanContext())).to.equal(true);
    expect(exporter.getFinishedSpans()).to.deep.equal([]);
  });
});
