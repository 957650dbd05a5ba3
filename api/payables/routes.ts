import { Router } from 'express';
import { NotFound } from '../../domain/errors';
import { PayablesLedger } from '../../db/repositories/payables-ledger';
import { PayablesRepository } from '../../db/repositories/payables';
import { created, handle, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import { transactionOf } from './inputs';
import { createPayable, payPayable, writeOffPayable } from './payables-service';
import { presentPayable, presentPayablePayment } from './presenter';

/** What assignors owe their originator: open by hand or by an overdue title, pay, write off. */
export function assignorPayableRoutes(): Router {
  const router = Router();

  router.post('/v1/assignor-payables', handle(async (req, uow) => created(presentPayable(await createPayable(uow.db, tenantOf(req), body<'createAssignorPayable'>(req))))));

  router.get('/v1/assignor-payables', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const q = req.query as Record<string, string | undefined>;
    const { items, total } = await new PayablesRepository(uow.db, tenantOf(req)).list({
      assignorId: q.assignor_id, status: q.status, originTitleId: q.origin_title_id, dueFrom: q.due_date_from, dueTo: q.due_date_to,
    }, limit, offset);
    return ok({ items: items.map(presentPayable), total, limit, offset });
  }));

  router.get('/v1/assignor-payables/:id', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const payable = await new PayablesRepository(uow.db, originatorId).byId(String(req.params.id));
    if (!payable) throw new NotFound('payable_not_found');
    const lines = await new PayablesLedger(uow.db, originatorId).linesOf({ payableId: payable.id });
    return ok({ ...presentPayable(payable), payments: lines.map(presentPayablePayment) });
  }));

  router.post('/v1/assignor-payables/:id/payments', handle(async (req, uow) =>
    created(await payPayable(transactionOf(uow), tenantOf(req), String(req.params.id), body<'payAssignorPayable'>(req)))));

  router.post('/v1/assignor-payables/:id/write-off', handle(async (req, uow) =>
    ok(presentPayable(await writeOffPayable(uow.db, tenantOf(req), String(req.params.id), body<'writeOffAssignorPayable'>(req).reason)))));
  return router;
}
