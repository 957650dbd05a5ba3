import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import { Conflict, NotFound, Unavailable } from '../../domain/errors';
import { principalLabel } from '../../domain/principal';
import { addDays, businessDate } from '../../domain/pricing';
import { LedgerReconciliationsRepository } from '../../db/repositories/ledger-reconciliations';
import { trialBalanceOf } from '../../db/repositories/ledger-balances';
import { ledgerReconciler, type StatementSources } from '../../activities/ledger-reconciliation';
import { PixCollectionError, PixError } from '../../providers/provider-errors';
import type { AuditTrail } from '../audit/audit-trail';
import { handle, ok } from '../http/handle';
import { body, page } from '../http/request-helpers';
import { presentTrialBalance } from './presenter';
import { presentReconciliation, presentReconciliationDetail } from './reconciliation-presenter';

type Query = Record<string, string | undefined>;

/** A PSP that cannot be read leaves nothing stored: 503, the staff member tries again. */
async function readingPsps<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PixError) throw new Unavailable('pix_unavailable');
    if (err instanceof PixCollectionError) throw new Unavailable('pix_collection_unavailable');
    throw err;
  }
}

async function detailOf(db: Knex, id: string) {
  const repository = new LedgerReconciliationsRepository(db);
  const run = await repository.find(id);
  if (!run) throw new NotFound('ledger_reconciliation_not_found');
  return presentReconciliationDetail(run, await repository.mismatchesOf(id));
}

/** Staff's side of the books: reconciliation against the PSPs, its runs and mismatches, the close, every originator's trial balance. */
export function ledgerBackofficeRoutes(deps: { sources: StatementSources; audit: AuditTrail; now: () => Date }): Router {
  const router = Router();

  router.post('/v1/backoffice/ledger/reconcile', handle(async (req, uow) => {
    const now = deps.now();
    const date = body<'reconcileLedger'>(req)?.business_date ?? addDays(businessDate(now), -1);
    const reconcileDate = ledgerReconciler({ db: uow.db, sources: deps.sources });
    const outcome = await readingPsps(() => reconcileDate(date, principalLabel(req.ctx.principal!), now, (trx, result) => deps.audit.record(req, {
      action: 'ledger.reconcile', request: { business_date: date },
      after: { reconciliation_ids: result.reconciliationIds, mismatches: result.mismatches, date_closed: result.closed },
    }, trx)));
    const repository = new LedgerReconciliationsRepository(uow.db);
    const runs = await Promise.all(outcome.reconciliationIds.map((id) => repository.find(id)));
    return ok({
      business_date: date, reconciliations: runs.map((run) => presentReconciliation(run!)), mismatch_count: outcome.mismatches, date_closed: outcome.closed,
    });
  }));

  router.get('/v1/backoffice/ledger/reconciliations', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const q = req.query as Query;
    const { items, total } = await new LedgerReconciliationsRepository(uow.db)
      .list({ businessDate: q.business_date, status: q.status as 'clean' | 'mismatched' | 'accepted' | undefined }, limit, offset);
    return ok({ items: items.map(presentReconciliation), total, limit, offset });
  }));

  router.get('/v1/backoffice/ledger/reconciliations/:id', handle(async (req, uow) => ok(await detailOf(uow.db, String(req.params.id)))));

  router.post('/v1/backoffice/ledger/reconciliations/:id/accept', handle(async (req: Request, uow) => {
    const id = String(req.params.id);
    const repository = new LedgerReconciliationsRepository(uow.db);
    const run = await repository.find(id);
    if (!run) throw new NotFound('ledger_reconciliation_not_found');
    const by = principalLabel(req.ctx.principal!);
    const { reason } = body<'acceptLedgerReconciliation'>(req);
    if (!await repository.accept(uow.db, id, by, reason)) {
      throw new Conflict({ code: 'ledger_reconciliation_not_mismatched', message: `The reconciliation is ${run.status}: only a mismatched one is accepted` });
    }
    const closed = run.businessDate < businessDate(deps.now())
      && await repository.closeIfReconciled(uow.db, run.businessDate, Object.keys(deps.sources) as (keyof StatementSources)[], by);
    await deps.audit.record(req, { action: 'ledger.reconciliation_accept', target: { type: 'ledger_reconciliation', id }, request: { reason }, after: { date_closed: closed } }, uow.db);
    return ok(await detailOf(uow.db, id));
  }));

  router.get('/v1/backoffice/ledger/trial-balance', handle(async (req, uow) => {
    const q = req.query as Query;
    const asOf = q.as_of === undefined ? null : new Date(q.as_of);
    const accounts = uow.db('ledger_accounts as a');
    if (q.originator_id) accounts.where('a.originator_id', q.originator_id);
    return ok(presentTrialBalance(await trialBalanceOf(uow.db, accounts, asOf), asOf ?? deps.now()));
  }));
  return router;
}
