import type { Request } from 'express';
import { Forbidden } from '../../domain/errors';

/** The tenant of an integration request: the originator carried by the credential's token. */
export function tenantOf(req: Request): string {
  const originatorId = req.ctx.principal?.originatorId;
  if (!originatorId) throw new Forbidden({ code: 'originator_required', message: 'This route needs a token bound to an originator' });
  return originatorId;
}

/** `limit` (1–200, default 50) and `offset`, already validated by the OpenAPI document. */
export function page(req: Request): { limit: number; offset: number } {
  return { limit: Number(req.query.limit ?? 50), offset: Number(req.query.offset ?? 0) };
}
