import { auditedRequest } from '../audit/audit-trail';
import { Router } from 'express';
import { stripDocument } from '../../domain/documents';
import { NotFound } from '../../domain/errors';
import { OperationsRepository } from '../../db/repositories/operations';
import { titleOwner } from '../../db/repositories/title-payments';
import { principalLabel } from '../../domain/principal';
import type { Config } from '../../platform/config/config';
import type { TemporalHandle } from '../temporal/client';
import { created, handle, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import { presentTitle } from '../operations/presenter';
import { recordPayerPayment } from './payer-payments';

/**
 * The titles of an originator's operations with their balances, and how a payer's payment
 * reaches a title: recorded by backoffice staff (user token, any originator's title) or, outside
 * production, simulated by the integrator itself.
 */
export function titleRoutes(deps: { temporal: TemporalHandle; config: Config }): Router {
  const router = Router();

  router.get('/v1/titles', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const q = req.query as Record<string, string | undefined>;
    const { items, total } = await new OperationsRepository(uow.db, tenantOf(req)).listTitles({
      status: q.status, operationId: q.operation_id, payerDocument: q.payer_document ? stripDocument(q.payer_document) : undefined, dueFrom: q.due_date_from, dueTo: q.due_date_to,
    }, limit, offset);
    return ok({ items: items.map(presentTitle), total, limit, offset });
  }));

  router.get('/v1/titles/:id', handle(async (req, uow) => {
    const title = await new OperationsRepository(uow.db, tenantOf(req)).titleById(String(req.params.id));
    if (!title) throw new NotFound('title_not_found');
    return ok(presentTitle(title));
  }));

  router.post('/v1/backoffice/titles/:id/payer-payments', handle(async (req, uow) => {
    const titleId = String(req.params.id);
    const owner = await titleOwner(uow.db, titleId);
    if (!owner) throw new NotFound('title_not_found');
    const sent = body<'recordPayerPayment'>(req);
    // The title's workflow writes the row with the payment, in one transaction.
    const by = { channel: 'BACKOFFICE' as const, recordedBy: principalLabel(req.ctx.principal!), audit: auditedRequest(req, 'title.payer_payment', sent) };
    return created(await recordPayerPayment(deps, uow.db, owner, titleId, sent, by));
  }));

  router.post('/v1/sandbox/titles/:id/payer-payments', handle(async (req, uow) => {
    // Production has no simulated payers: the route is absent from its OpenAPI document, hence 404 there.
    const by = { channel: 'SANDBOX' as const, recordedBy: principalLabel(req.ctx.principal!) };
    return created(await recordPayerPayment(deps, uow.db, tenantOf(req), String(req.params.id), body<'simulatePayerPayment'>(req), by));
  }));
  return router;
}
