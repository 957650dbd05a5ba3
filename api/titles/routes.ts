import { Router } from 'express';
import { NotFound } from '../../domain/errors';
import { titleOwner } from '../../db/repositories/title-payments';
import type { Principal } from '../auth/principal';
import type { Config } from '../../db/config';
import type { TemporalHandle } from '../temporal-client';
import { created, handle } from '../http/handle';
import { tenantOf } from '../http/request-helpers';
import { transactionOf } from '../payables/inputs';
import { recordPayerPayment } from './payer-payments';

const actorOf = (p: Principal) => (p.tokenType === 'user' ? `user:${p.userId}` : `client:${p.credentialId}`);

/**
 * How a payer's payment reaches a title: recorded by backoffice staff (user token, any
 * originator's title) or, outside production, simulated by the integrator itself.
 */
export function titlePaymentRoutes(deps: { temporal: TemporalHandle; config: Config }): Router {
  const router = Router();

  router.post('/v1/backoffice/titles/:id/payer-payments', handle(async (req, uow) => {
    const titleId = String(req.params.id);
    const owner = await titleOwner(uow.db, titleId);
    if (!owner) throw new NotFound('title_not_found');
    const by = { channel: 'BACKOFFICE' as const, recordedBy: actorOf(req.ctx.principal!) };
    return created(await recordPayerPayment(deps, transactionOf(uow), owner, titleId, req.body, by));
  }));

  router.post('/v1/sandbox/titles/:id/payer-payments', handle(async (req, uow) => {
    // Production has no simulated payers: the route is absent from its OpenAPI document, hence 404 there.
    const by = { channel: 'SANDBOX' as const, recordedBy: actorOf(req.ctx.principal!) };
    return created(await recordPayerPayment(deps, transactionOf(uow), tenantOf(req), String(req.params.id), req.body, by));
  }));
  return router;
}
