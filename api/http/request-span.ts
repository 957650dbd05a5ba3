import type { Attributes, AttributeValue, Context, Exception, HrTime, Link, Span, SpanContext, SpanStatus, TimeInput } from '@opentelemetry/api';
import { SamplingDecision, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { addHrTimes, hrTime, hrTimeDuration, millisToHrTime, timeInputToHrTime } from '@opentelemetry/core';
import type { IResource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { TracingSdk } from '../../platform/telemetry/tracing';
import { randomIds } from './traceparent';

const SCOPE = { name: 'receivables-api' };

/**
 * The api's server span, recorded without the SDK's `Span`: on the cheapest route (the operation
 * read, 0.15 ms of api CPU) the SDK's span was most of what tracing cost, its `setAttribute` above
 * all (a count of every key held, on each write, against the attribute limit). A request span holds
 * a handful of attributes of its own choosing, so it writes them straight into its record, which is
 * what the batch processor and the OTLP exporter read (the SDK's `ReadableSpan`). Everything else a
 * span may be asked (events, links, an exception) is kept as the SDK keeps it.
 */
export class RequestSpan implements Span, ReadableSpan {
  readonly kind = SpanKind.SERVER;
  attributes: Attributes = {};
  readonly links: Link[] = [];
  readonly events: TimedEvent[] = [];
  // As the SDK's span: the start on the wall clock, the duration on the monotonic one (a process's
  // time origin plus its monotonic time drifts from the wall clock after a suspended machine resumes).
  readonly startTime = millisToHrTime(Date.now());
  private readonly startedAt = performance.now();
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly instrumentationLibrary = SCOPE;
  readonly resource: IResource;
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  endTime: HrTime = [0, 0];
  duration: HrTime = [-1, -1];
  ended = false;

  constructor(
    public name: string,
    private readonly context: SpanContext,
    readonly parentSpanId: string | undefined,
    private readonly sink: TracingSdk,
  ) {
    this.resource = sink.resource;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (value != null && !this.ended) this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const timed = attributesOrTime instanceof Date || typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime);
    const at = timed ? (attributesOrTime as TimeInput) : time;
    this.events.push({
      name, attributes: timed ? undefined : attributesOrTime as Attributes | undefined, time: at === undefined ? hrTime() : timeInputToHrTime(at), droppedAttributesCount: 0,
    });
    return this;
  }

  addLink(link: Link): this {
    this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.links.push(...links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.ended) this.status = { ...status };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const error = typeof exception === 'string' ? { message: exception } : exception;
    const described: Attributes = {};
    // The SDK's order: a code names the type before the name does.
    const type = 'code' in error && error.code ? String(error.code) : error.name;
    if (type) described['exception.type'] = type;
    if (error.message) described['exception.message'] = error.message;
    if (error.stack) described['exception.stacktrace'] = error.stack;
    if (type || error.message) this.addEvent('exception', described, time);
  }

  /**
   * Ends the span with the attributes the request's outcome gave it, taken as they are: an object
   * literal of the caller's, not one store per key, the dearest line of the SDK's span and of this
   * record's `setAttribute` alike (a keyed store of a new key on a fresh object, each time).
   */
  endWith(attributes: Attributes): void {
    let earlier = false;
    for (const _ in this.attributes) earlier = true;
    this.attributes = earlier ? Object.assign(this.attributes, attributes) : attributes;
    this.end();
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    if (endTime === undefined) {
      this.duration = millisToHrTime(performance.now() - this.startedAt);
      this.endTime = addHrTimes(this.startTime, this.duration);
    } else {
      this.endTime = timeInputToHrTime(endTime);
      this.duration = hrTimeDuration(this.startTime, this.endTime);
    }
    this.sink.spanProcessor.onEnd(this);
  }
}

/**
 * A server span named `name`, continuing the trace `parent` carries (its caller's `traceparent`), as
 * the SDK's tracer would start it: the sampler decides, a span left out only carries the ids on.
 * The batch processor does nothing when a span starts, so it only hears of this one at its end.
 */
export function startRequestSpan(name: string, parent: Context, sink: TracingSdk): RequestSpan | Span {
  const caller = trace.getSpanContext(parent);
  const continued = caller && trace.isSpanContextValid(caller) ? caller : undefined;
  const ids = randomIds();
  const traceId = continued?.traceId ?? ids.traceId;
  const sampled = sink.sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, {}, []);
  const context: SpanContext = {
    traceId,
    spanId: ids.spanId,
    traceFlags: sampled.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
    traceState: sampled.traceState ?? continued?.traceState,
  };
  if (sampled.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(context);
  const span = new RequestSpan(name, context, continued?.spanId, sink);
  return sampled.attributes ? span.setAttributes(sampled.attributes) : span;
}
