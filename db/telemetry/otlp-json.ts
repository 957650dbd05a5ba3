import type { Attributes, HrTime, Link } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { IResource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/*
 * OTLP/HTTP JSON (an `ExportTraceServiceRequest`) written as text, byte for byte what the SDK's
 * JSON serializer of the pinned release writes: it builds an object per span, attribute, value,
 * event and link, then stringifies the whole batch at once, a few hundred kB that land in V8's
 * large-object space. Each span is written here as one string when it ends, and the batch is bytes
 * outside the heap (db/telemetry/otlp-json-batches.ts). Members are written in the SDK's order and
 * left out where it leaves them undefined; strings go through `JSON.stringify` as they do there.
 */

function anyValue(value: unknown): string {
  switch (typeof value) {
    case 'string': return `{"stringValue":${JSON.stringify(value)}}`;
    case 'number': return Number.isInteger(value) ? `{"intValue":${value}}` : `{"doubleValue":${JSON.stringify(value)}}`;
    case 'boolean': return `{"boolValue":${value}}`;
    case 'object':
      if (value === null) return '{}';
      if (value instanceof Uint8Array) return `{"bytesValue":${JSON.stringify(value)}}`;
      if (Array.isArray(value)) return `{"arrayValue":{"values":[${value.map(anyValue).join(',')}]}}`;
      return `{"kvlistValue":{"values":${keyValues(value as Record<string, unknown>)}}}`;
    default: return '{}';
  }
}

function keyValues(attributes: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(attributes)) {
    text += `${text ? ',' : ''}{"key":${JSON.stringify(key)},"value":${anyValue(attributes[key])}}`;
  }
  return `[${text}]`;
}

const NANOS = BigInt(1_000_000_000);

/** Nanoseconds since the epoch as OTLP's JSON writes them (a decimal string), without a BigInt in the common case. */
function nanos([seconds, nanoseconds]: HrTime): string {
  if (Number.isSafeInteger(seconds) && seconds >= 0 && Number.isInteger(nanoseconds) && nanoseconds >= 0 && nanoseconds < 1e9) {
    return seconds === 0 ? String(nanoseconds) : `${seconds}${String(nanoseconds).padStart(9, '0')}`;
  }
  return (BigInt(seconds) * NANOS + BigInt(nanoseconds)).toString();
}

const optional = (name: string, value: string | undefined) => (value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`);

function event({ attributes, name, time, droppedAttributesCount }: TimedEvent): string {
  return `{"attributes":${attributes ? keyValues(attributes) : '[]'},"name":${JSON.stringify(name)},"timeUnixNano":"${nanos(time)}","droppedAttributesCount":${droppedAttributesCount || 0}}`;
}

function link({ attributes, context, droppedAttributesCount }: Link): string {
  return `{"attributes":${attributes ? keyValues(attributes) : '[]'},"spanId":${JSON.stringify(context.spanId)},"traceId":${JSON.stringify(context.traceId)}`
    + `${optional('traceState', context.traceState?.serialize())},"droppedAttributesCount":${droppedAttributesCount || 0}}`;
}

/** One span of `resourceSpans[].scopeSpans[].spans`, as JSON text. */
export function otlpSpanJson(span: ReadableSpan): string {
  const { traceId, spanId, traceState } = span.spanContext();
  const { code, message } = span.status;
  return `{"traceId":${JSON.stringify(traceId)},"spanId":${JSON.stringify(spanId)}${optional('parentSpanId', span.parentSpanId)}`
    + `${optional('traceState', traceState?.serialize())},"name":${JSON.stringify(span.name)},"kind":${span.kind == null ? 0 : span.kind + 1}`
    + `,"startTimeUnixNano":"${nanos(span.startTime)}","endTimeUnixNano":"${nanos(span.endTime)}","attributes":${keyValues(span.attributes as Attributes)}`
    + `,"droppedAttributesCount":${span.droppedAttributesCount},"events":[${span.events.map(event).join(',')}],"droppedEventsCount":${span.droppedEventsCount}`
    + `,"status":{"code":${code}${optional('message', message)}},"links":[${span.links.map(link).join(',')}],"droppedLinksCount":${span.droppedLinksCount}}`;
}

/**
 * What comes before and after the spans of one resource and one scope in an export's body:
 * `head + spans joined by commas + tail` is the SDK's body for a batch of such spans.
 */
export function otlpEnvelope(resource: IResource, scope: InstrumentationScope): { head: string; tail: string } {
  const scopeJson = JSON.stringify({ name: scope.name, version: scope.version });
  return {
    head: `{"resourceSpans":[{"resource":{"attributes":${keyValues(resource.attributes)},"droppedAttributesCount":0},"scopeSpans":[{"scope":${scopeJson},"spans":[`,
    tail: `]${optional('schemaUrl', scope.schemaUrl)}}]}]}`,
  };
}
