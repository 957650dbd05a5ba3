import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Reply, UnitOfWork } from './context';

export function sendReply(res: Response, reply: Reply): void {
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status);
  if (reply.body === undefined) res.end();
  else res.type('application/json').send(JSON.stringify(reply.body));
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

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
