import { randomFillSync } from 'node:crypto';
import { trace, TraceFlags } from '@opentelemetry/api';

const INCOMING = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ZERO_TRACE = '0'.repeat(32);

/**
 * Random ids drawn from a pool refilled for 256 requests at a time, as request ids are, and written
 * out in hex once per refill: two hex encodings a request were a visible line of the traced read's profile.
 */
const POOLED = 256;
const pool = Buffer.alloc(24 * POOLED);
let hex = '';
let drawn = POOLED;

/** A new trace id and span id; also the ids of the api's own server spans (api/http/request-span.ts). */
export function randomIds(): { traceId: string; spanId: string } {
  if (drawn === POOLED) {
    hex = randomFillSync(pool).toString('hex');
    drawn = 0;
  }
  const at = 48 * drawn++;
  return { traceId: hex.slice(at, at + 32), spanId: hex.slice(at + 32, at + 48) };
}

export interface TraceIds {
  traceId: string;
  spanId: string;
  /** W3C `traceparent` of this request's span, sent back beside the request id. */
  traceparent: string;
}

/**
 * The request's place in a trace. With tracing on, the server span api/middleware/server-span.ts opened
 * (continuing the caller's `traceparent`); with it off, the caller's trace id, or a new one, and a
 * span id of this request, not sampled: a caller and our logs still share one id to search by.
 */
export function traceIdsOf(incoming: string | undefined): TraceIds {
  const span = trace.getActiveSpan();
  if (span) {
    const { traceId, spanId, traceFlags } = span.spanContext();
    return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-0${traceFlags & TraceFlags.SAMPLED}` };
  }
  const ids = randomIds();
  const continued = incoming ? INCOMING.exec(incoming)?.[1] : undefined;
  const traceId = continued && continued !== ZERO_TRACE ? continued : ids.traceId;
  return { traceId, spanId: ids.spanId, traceparent: `00-${traceId}-${ids.spanId}-00` };
}
