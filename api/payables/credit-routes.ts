import { Router } from 'express';
import { DiscountCreditsRepository } from '../../db/repositories/credits';
import { PayablesLedger } from '../../db/repositories/payables-ledger';
import { created, handle, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import { grantDiscountCredit } from './credits-service';
import { transactionOf } from './inputs';
import { presentDiscountCredit } from './presenter';

export function discountCreditRoutes(): Router {
  const router = Router();

  router.post('/v1/discount-credits', handle(async (req, uow) => created(await grantDiscountCredit(transactionOf(uow), tenantOf(req), body<'grantDiscountCredit'>(req)))));

  router.get('/v1/discount-credits', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const { limit, offset } = page(req);
    const { items, total } = await new DiscountCreditsRepository(uow.db, originatorId).list({ assignorId: req.query.assignor_id as string | undefined }, limit, offset);
    const lines = await new PayablesLedger(uow.db, originatorId).linesOf({ discountCreditIds: items.map((credit) => credit.id) });
    return ok({ items: items.map((credit) => presentDiscountCredit(credit, lines)), total, limit, offset });
  }));
  return router;
}
