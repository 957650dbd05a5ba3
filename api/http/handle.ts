import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Reply, UnitOfWork } from './context';

/**
 * Up to this size a body of pieces is sent as one copy. A page of 100 event envelopes (33 KB, 201
 * pieces) cost 0.060-0.075 ms of CPU per request written piece by piece and 0.045-0.054 ms as one
 * copy (plain Node server, same bytes); half a megabyte copied per request is what made the
 * operations list collect its whole heap (docs/decisions.md "List answers from kept renderings").
 */
const ONE_PIECE_BYTES = 64 * 1024;

/**
 * What Express's `res.send` does with a JSON text, without its generic steps: ETags are off and no
 * reply sets ETag or Last-Modified (so nothing is ever fresh), and the text is handed to Node as
 * it is, which writes it with the headers in one piece instead of copying it into a Buffer first.
 */
export function sendReply(res: Response, reply: Reply): void {
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  // A reply that brings its own Content-Type and a text (the audit trail's CSV) is sent as it is.
  if (typeof reply.body === 'string' && reply.headers?.['Content-Type']) {
    res.send(reply.body);
    return;
  }
  if (res.locals.replyThroughValidator) {
    res.json(reply.body instanceof JsonText ? reply.body.toJSON() : reply.body);
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (reply.body instanceof JsonText) {
    const { chunks, length } = reply.body;
    res.setHeader('Content-Length', length);
    if (res.req.method === 'HEAD') {
      res.end();
      return;
    }
    // A small body is copied once and sent as one piece: each piece written costs more than the copy.
    if (length <= ONE_PIECE_BYTES) {
      res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
      return;
    }
    // Corked, the headers and every piece leave in one write; `end` uncorks.
    res.cork();
    for (const chunk of chunks) res.write(chunk);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/**
 * Adapts a handler that returns a reply into an Express handler. The work runs through the
 * request's executor (a transaction, or the idempotency layer around one) before anything is sent.
 */
export function handle(fn: (req: Request, uow: UnitOfWork) => Promise<Reply>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const reply = await req.ctx.execute((uow) => fn(req, uow));
      sendReply(res, reply);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * A body already serialised, as UTF-8 pieces (a cached rendering, a page of them): written as they
 * are, one after the other, neither encoded nor copied again. Half a megabyte allocated per
 * request is what made a page of 50 operations cost the api full garbage collections of its heap.
 * Whatever stringifies a reply's body anyway gets the same JSON.
 */
export class JsonText {
  readonly length: number;

  constructor(readonly chunks: readonly Buffer[]) {
    this.length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  toJSON(): unknown {
    return JSON.parse(Buffer.concat(this.chunks).toString('utf8'));
  }
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const COMMA = Buffer.from(',');

/** `{"items":[…], …fields}` from items already serialised, as `JSON.stringify` would write it. */
export function jsonPage(items: readonly Buffer[], fields: Record<string, unknown>): JsonText {
  const rest = JSON.stringify(fields);
  const chunks: Buffer[] = [ITEMS_OPEN];
  for (let at = 0; at < items.length; at++) {
    if (at > 0) chunks.push(COMMA);
    chunks.push(items[at]);
  }
  chunks.push(Buffer.from(rest === '{}' ? ']}' : `],${rest.slice(1)}`));
  return new JsonText(chunks);
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
