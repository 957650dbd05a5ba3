import { context, diag, TraceFlags } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode, getEnv, suppressTracing, unrefTimer } from '@opentelemetry/core';
import type { InstrumentationScope } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { IResource } from '@opentelemetry/resources';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otlpEnvelope, otlpSpanJson } from './otlp-json';

/** Sends one export's body (OTLP/HTTP JSON): the SDK's exporter with its transport, headers, retries and timeout. */
export interface BodyExporter {
  export(body: Uint8Array, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/** The batch processor's settings, read as it reads them (OTEL_BSP_*). */
export interface BatchLimits {
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
}

/** The batch processor's settings as it reads them, the delay ours (a trace shows up within a second). */
export const SCHEDULED_DELAY_MS = 1_000;

export function batchLimits(): BatchLimits {
  const env = getEnv();
  return {
    maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE,
    maxExportBatchSize: Math.min(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, env.OTEL_BSP_MAX_QUEUE_SIZE),
    scheduledDelayMillis: SCHEDULED_DELAY_MS,
    exportTimeoutMillis: env.OTEL_BSP_EXPORT_TIMEOUT,
  };
}

/**
 * The SDK's OTLP/HTTP JSON trace exporter (its URL, OTEL_EXPORTER_OTLP_* headers, compression,
 * timeout, retries, its very User-Agent) sending bodies already written, instead of serializing spans.
 */
export function bodyExporter(url: string): BodyExporter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('@opentelemetry/exporter-trace-otlp-http/package.json') as { version: string };
  const headers = { 'User-Agent': `OTel-OTLP-Exporter-JavaScript/${version}`, 'Content-Type': 'application/json' };
  return new OTLPExporterBase<Uint8Array>(createOtlpHttpExportDelegate(convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', headers), {
    serializeRequest: (body: Uint8Array) => body,
    deserializeResponse: (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)),
  }));
}

interface Batch {
  body: Buffer;
  length: number;
  spans: number;
}

/** Room for a batch of the default 512 spans of the api's shape (about 650 bytes each) many times over. */
const CAPACITY = 1 << 20;
/** Free batch buffers kept for the next batches: one filling while one is sent is the steady state. */
const SPARE = 2;

/**
 * A span processor that writes each ended span's OTLP JSON into its batch's bytes at once and sends
 * batches as the SDK's batch processor does: one export at a time, a batch when `maxExportBatchSize` spans are waiting or
 * `scheduledDelayMillis` after the first, at most `maxQueueSize` spans waiting, the rest dropped and
 * counted. Keeping spans until the export (what the SDK's processor does) carried each one, its
 * attributes and times, past a young-generation collection, and the export then built the OTLP
 * objects of the whole batch and its JSON inside V8's heap: here nothing of a span outlives its
 * request but bytes outside the heap. Its spans are of one resource and one scope, the first span's
 * (the api's request spans); a span of another goes to `others`.
 */
export class OtlpJsonBatches implements SpanProcessor {
  /** The resource and scope of the first span: this processor's spans, written under one envelope. */
  private envelope: { resource: IResource; scope: InstrumentationScope; head: string; tail: string } | null = null;
  private filling: Batch | null = null;
  private readonly ready: Batch[] = [];
  private readonly spare: Buffer[] = [];
  private queued = 0;
  private exporting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private droppedSinceWarning = 0;

  constructor(
    private readonly exporter: BodyExporter,
    private readonly limits: BatchLimits,
    private readonly others: SpanProcessor,
    private readonly onDrop: () => void,
  ) {}

  onStart(span: Span, parent: Parameters<SpanProcessor['onStart']>[1]): void {
    this.others.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    if (this.closed || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    const scope = span.instrumentationLibrary;
    const envelope = this.envelope ??= { resource: span.resource, scope, ...otlpEnvelope(span.resource, scope) };
    if (span.resource !== envelope.resource || scope.name !== envelope.scope.name || scope.version !== envelope.scope.version || scope.schemaUrl !== envelope.scope.schemaUrl) {
      this.others.onEnd(span);
      return;
    }
    if (this.queued >= this.limits.maxQueueSize) {
      if (this.droppedSinceWarning++ === 0) diag.debug('maxQueueSize reached, dropping spans');
      this.onDrop();
      return;
    }
    if (this.droppedSinceWarning > 0) {
      diag.warn(`Dropped ${this.droppedSinceWarning} spans because maxQueueSize reached`);
      this.droppedSinceWarning = 0;
    }
    this.append(otlpSpanJson(span), envelope);
    this.schedule();
  }

  forceFlush(): Promise<void> {
    return this.flushAll();
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushAll();
    await this.exporter.shutdown();
  }

  /** Writes one span's text into the filling batch, starting a new one when it is full. */
  private append(text: string, { head, tail }: { head: string; tail: string }): void {
    // A UTF-16 unit is at most three bytes of UTF-8: room checked without measuring the text.
    const room = 3 * text.length + 1 + tail.length;
    let batch = this.filling;
    if (!batch || batch.spans >= this.limits.maxExportBatchSize || batch.length + room > batch.body.length) {
      this.closeFilling();
      batch = this.filling = this.open(head, room);
    }
    if (batch.spans > 0) batch.body[batch.length++] = 0x2c;
    batch.length += batch.body.write(text, batch.length);
    batch.spans++;
    this.queued++;
  }

  private open(head: string, room: number): Batch {
    const needed = 3 * head.length + room;
    const body = needed <= CAPACITY ? this.spare.pop() ?? Buffer.allocUnsafeSlow(CAPACITY) : Buffer.allocUnsafeSlow(needed);
    return { body, length: body.write(head, 0), spans: 0 };
  }

  private closeFilling(): void {
    if (this.filling && this.filling.spans > 0) this.ready.push(this.filling);
    this.filling = null;
  }

  /** As the SDK's processor: at once when a batch is full, else after the delay, never two exports at a time. */
  private schedule(): void {
    if (this.exporting) return;
    if (this.ready.length > 0 || (this.filling?.spans ?? 0) >= this.limits.maxExportBatchSize) {
      this.exportNext();
      return;
    }
    if (this.timer !== undefined || !this.filling) return;
    this.timer = setTimeout(() => this.exportNext(), this.limits.scheduledDelayMillis);
    unrefTimer(this.timer);
  }

  private exportNext(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.ready.length === 0) this.closeFilling();
    const batch = this.ready.shift();
    if (!batch) return;
    this.queued -= batch.spans;
    this.exporting = this.send(batch).then(() => {
      this.exporting = null;
      this.schedule();
    });
  }

  /** Sends a batch, giving up waiting after the export timeout; its buffer is used again once the send is over. */
  private send(batch: Batch): Promise<void> {
    batch.length += batch.body.write(this.envelope?.tail ?? '', batch.length);
    return new Promise((resolve) => {
      const timeout = setTimeout(() => {
        diag.error('OTLP JSON export of request spans timed out');
        resolve();
      }, this.limits.exportTimeoutMillis);
      // The exporter's own requests are no traffic of ours to trace.
      context.with(suppressTracing(context.active()), () => this.exporter.export(batch.body.subarray(0, batch.length), (result) => {
        clearTimeout(timeout);
        if (result.code !== ExportResultCode.SUCCESS) diag.error('OTLP JSON export of request spans failed', result.error);
        if (batch.body.length === CAPACITY && this.spare.length < SPARE) this.spare.push(batch.body);
        resolve();
      }));
    });
  }

  private async flushAll(): Promise<void> {
    this.closeFilling();
    for (;;) {
      if (this.exporting) await this.exporting;
      else if (this.ready.length > 0) this.exportNext();
      else return;
    }
  }
}
