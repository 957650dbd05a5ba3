import { Router } from 'express';
import { requestTime } from '../test-clocks/request-time';
import type { Knex } from 'knex';
import { parseDocument } from '../../domain/documents';
import { readSentNfe } from '../../domain/nfe-key';
import {
  businessDate, normalisePricingRequest, priceOperation, renderPricedOperation, renderPricedReceivable,
} from '../../domain/pricing';
import { policyForOperation } from '../../db/repositories/policies';
import { refuseTooMany } from '../../domain/operation-creation';
import type { ReferenceCache } from '../cache/reference-cache';
import { identifyReceivables } from '../operations/creation/direct';
import { openDebtByDocument } from '../operations/debt-netting';
import { handle, ok } from '../http/handle';
import { body, tenantOf } from '../http/request-helpers';

/** The simulation is not a resource: its `id` is a fixed label, the same in every response. */
export const SIMULATION_ID = 'simulation';

interface SimulateBody {
  assignor_document?: string | null;
  policy_id?: string | null;
  receivables: Record<string, unknown>[];
  fees?: unknown;
}

/**
 * Prices the receivables exactly as direct creation would, and creates nothing: it only reads the
 * policy and the assignor's and payers' fee defaults (from this process's cache). CET outside the
 * policy range is advisory.
 */
async function simulate(db: Knex, cache: ReferenceCache, originatorId: string, body: SimulateBody, now: Date) {
  const { receivables, fees } = normalisePricingRequest(body, { route: 'simulate' });
  const assignorDocument = body.assignor_document ? parseDocument(body.assignor_document, ['body', 'assignor_document']).value : null;
  // The NF-e keys are checked as creation checks them; without an assignor the issuer is not compared. No claim is looked at.
  identifyReceivables(body.receivables.map(readSentNfe), receivables, assignorDocument);
  const policy = await policyForOperation(body.policy_id ?? null, (policyId) => cache.policy(originatorId, policyId));
  refuseTooMany(receivables.length, policy);
  const priced = priceOperation({
    receivables,
    fees,
    policy,
    assignorDefaults: assignorDocument ? await cache.assignorFeeDefaults(originatorId, assignorDocument) : null,
    payerDefaultsByDocument: await cache.payerFeeDefaults(originatorId, receivables.map((r) => r.payerDocument)),
    businessDate: businessDate(now),
    otherDebtDiscounts: assignorDocument ? await openDebtByDocument(db, originatorId, assignorDocument) : undefined,
  });
  const reply = renderPricedOperation(priced, { id: SIMULATION_ID, status: 'SIMULATED', business_date: priced.businessDate, policy_id: policy.id });
  reply.receivables = priced.receivables.map(renderPricedReceivable);
  reply.warnings = priced.cetFindings;
  return reply;
}

export function simulationRoutes(now: () => Date, cache: ReferenceCache): Router {
  const router = Router();
  router.post('/v1/simulate', handle(async (req, uow) => {
    const sent = body<'simulate'>(req);
    const at = await requestTime(uow.db, tenantOf(req), sent.test_clock_id, now());
    return ok(await simulate(uow.db, cache, tenantOf(req), sent, at.now));
  }));
  return router;
}
