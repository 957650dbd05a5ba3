import type { Request } from 'express';
import { Forbidden } from '../../domain/errors';
import type { OperationId, RequestBody } from '../openapi/contract-types';

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

/**
 * The request's body as the document types it for `operationId`: the validator has already checked
 * it against that schema before any route runs.
 */
export function body<Op extends OperationId>(req: Request): RequestBody<Op> {
  return req.body as RequestBody<Op>;
}
