import { Router } from 'express';
import { requestTime } from '../test-clocks/request-time';
import { StockRepository } from '../../db/repositories/stock';
import { created, handle, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import { requestAnticipation, simulateAnticipation } from './anticipation';
import { cancelStockItem, changeStockItem, requireStockItem } from './items';
import { presentStockItem } from './presenter';
import { registerStock } from './register';
import { creationHandler, OperationRouteDeps } from '../operations/routes';

export function stockRoutes(deps: OperationRouteDeps): Router {
  const router = Router();
  const itemId = (params: Record<string, unknown>) => String(params.item_id);

  router.post('/v1/stock', handle(async (req, uow) => created(await registerStock(uow.db, tenantOf(req), body<'registerStockItems'>(req), deps.now()))));

  router.get('/v1/stock', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const { items, total } = await new StockRepository(uow.db, tenantOf(req)).list(limit, offset, req.query.status as string | undefined);
    return ok({ items: items.map(presentStockItem), total, limit, offset });
  }));

  router.post('/v1/stock/simulate-anticipation', handle(async (req, uow) => {
    const sent = body<'simulateStockAnticipation'>(req);
    const at = await requestTime(uow.db, tenantOf(req), sent.test_clock_id, deps.now());
    return ok(await simulateAnticipation(uow.db, tenantOf(req), sent, at.now));
  }));

  router.post('/v1/stock/request-anticipation', creationHandler(deps, 'requestStockAnticipation', requestAnticipation, 'stock_creation'));

  router.get('/v1/stock/:item_id', handle(async (req, uow) => {
    return ok(presentStockItem(await requireStockItem(new StockRepository(uow.db, tenantOf(req)), itemId(req.params))));
  }));

  router.patch('/v1/stock/:item_id', handle(async (req, uow) => ok(presentStockItem(await changeStockItem(uow.db, tenantOf(req), itemId(req.params), body<'changeStockItem'>(req))))));

  router.post('/v1/stock/:item_id/cancel', handle(async (req, uow) => ok(presentStockItem(await cancelStockItem(uow.db, tenantOf(req), itemId(req.params))))));
  return router;
}
