import { Router, type Request } from 'express';
import { NotFound } from '../../domain/errors';
import { Money } from '../../domain/money';
import { LedgerBalancesRepository } from '../../db/repositories/ledger-balances';
import { LedgerReadsRepository } from '../../db/repositories/ledger-reads';
import { handle, JsonText, ok } from '../http/handle';
import { page, tenantOf } from '../http/request-helpers';
import { presentAccount, presentTrialBalance } from './presenter';
import { statementCsv, StatementLanguage } from './statement-csv';
import { statementLines } from '../../domain/ledger/statement';
import type { LedgerTransactionCache } from './transaction-cache';

type Query = Record<string, string | undefined>;
const queryOf = (req: Request) => req.query as Query;
const momentOf = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));
/** The moment balances are of: `as_of`, else now (and the answer says which). */
const asOfOf = (req: Request): { asOf: Date | null; shown: Date } => {
  const asOf = momentOf(queryOf(req).as_of) ?? null;
  return { asOf, shown: asOf ?? new Date() };
};

/**
 * The originator's books: accounts and balances at any moment, transactions (posted ones answered
 * from `transactions`, this process's kept renderings), the trial balance.
 */
export function ledgerRoutes(transactions: LedgerTransactionCache): Router {
  const router = Router();
  const reads = (req: Request, db: Parameters<Parameters<typeof handle>[0]>[1]['db']) => new LedgerReadsRepository(db, tenantOf(req));

  router.get('/v1/ledger/accounts', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const q = queryOf(req);
    const { asOf, shown } = asOfOf(req);
    const { items, total } = await reads(req, uow.db).accounts({
      kind: q.kind, operationId: q.operation_id, titleId: q.title_id, assignorId: q.assignor_id, payableId: q.payable_id,
    }, asOf, limit, offset);
    return ok({ items: items.map((account) => presentAccount(account, shown)), total, limit, offset });
  }));

  router.get('/v1/ledger/accounts/:id', handle(async (req, uow) => {
    const { asOf, shown } = asOfOf(req);
    const account = await reads(req, uow.db).account(String(req.params.id), asOf);
    if (!account) throw new NotFound('ledger_account_not_found');
    return ok(presentAccount(account, shown));
  }));

  router.get('/v1/ledger/accounts/:id/statement.csv', handle(async (req, uow) => {
    const q = queryOf(req);
    const ledger = reads(req, uow.db);
    const from = momentOf(q.from) ?? null;
    const to = momentOf(q.to) ?? new Date();
    const opening = from ? await ledger.account(String(req.params.id), from) : undefined;
    const closing = await ledger.account(String(req.params.id), to);
    if (!closing) throw new NotFound('ledger_account_not_found');
    const openingBalance = opening?.posted ?? Money.ZERO;
    const lines = statementLines(closing.normalBalance, openingBalance, await ledger.postedEntries(closing.id, from, to));
    const text = statementCsv((q.lang ?? 'en') as StatementLanguage, { from, to }, openingBalance, lines, closing.posted);
    return { status: 200, body: text, headers: { 'Content-Type': 'text/csv; charset=utf-8' } };
  }));

  router.get('/v1/ledger/transactions', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const q = queryOf(req);
    const ledger = reads(req, uow.db);
    const { ids, total } = await ledger.transactionPage({
      accountId: q.account_id, operationId: q.operation_id, titleId: q.title_id, effectiveFrom: momentOf(q.effective_from), effectiveTo: momentOf(q.effective_to),
    }, limit, offset);
    return ok(await transactions.page(tenantOf(req), req.url, ids, { total, limit, offset }, (missing) => ledger.renderedTransactions(missing)));
  }));

  router.get('/v1/ledger/transactions/:id', handle(async (req, uow) => {
    const ledger = reads(req, uow.db);
    // Postgres writes ids in lower case, and the kept renderings are found by the id as written.
    const id = String(req.params.id).toLowerCase();
    const [transaction] = await transactions.renderings(tenantOf(req), [id], (missing) => ledger.renderedTransactions(missing));
    if (transaction === undefined) throw new NotFound('ledger_transaction_not_found');
    return ok(new JsonText([transaction]));
  }));

  router.get('/v1/ledger/trial-balance', handle(async (req, uow) => {
    const { asOf, shown } = asOfOf(req);
    return ok(presentTrialBalance(await new LedgerBalancesRepository(uow.db, tenantOf(req)).trialBalance(asOf), shown));
  }));
  return router;
}
