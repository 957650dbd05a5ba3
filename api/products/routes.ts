import { Router } from 'express';
import type { Product } from '../../db/repositories/products';
import type { ReferenceCache } from '../cache/reference-cache';
import { handle, ok } from '../http/handle';
import { page, tenantOf } from '../http/request-helpers';

function presentProduct(p: Product) {
  return {
    product_id: p.id,
    name: p.name,
    description: p.description,
    min_monthly_rate_pct: p.minMonthlyRatePct.toNumber(),
    max_monthly_rate_pct: p.maxMonthlyRatePct.toNumber(),
    min_term_days: p.minTermDays,
    max_term_days: p.maxTermDays,
    min_value_brl: p.minValueBrl.toString(),
    max_value_brl: p.maxValueBrl.toString(),
    nfe_xml: p.nfeXml,
    payer_confirmation: p.payerConfirmation.policy,
    payer_confirmation_deadline_days: p.payerConfirmation.deadlineDays,
    nfe_beyond_consult_age: p.nfeBeyondConsultAge,
  };
}

export function productRoutes(cache: ReferenceCache): Router {
  const router = Router();
  router.get('/v1/products', handle(async (req) => {
    const { limit, offset } = page(req);
    const { items, total } = await cache.productPage(tenantOf(req), limit, offset);
    return ok({ items: items.map(presentProduct), total, limit, offset });
  }));
  return router;
}
