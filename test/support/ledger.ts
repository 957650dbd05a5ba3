import { expect } from 'chai';
import { Money } from '../../domain/money';
import { LedgerBalancesRepository } from '../../db/repositories/ledger-balances';
import { testDb } from './stack';

/** The posted balance of each of the originator's accounts, by account key (`title_receivable:<id>`, `psp_cash:payout`...). */
export async function postedBalances(originatorId: string): Promise<Record<string, string>> {
  const accounts = await new LedgerBalancesRepository(testDb(), originatorId).of((query) => query, null);
  return Object.fromEntries(accounts.map((account) => [account.key, account.posted.toString()]));
}

/** `kind status` of each ledger transaction of the operation, in the order recorded. */
export async function transactionsOf(operationId: string): Promise<string[]> {
  const rows: { kind: string; status: string }[] = await testDb()('ledger_transactions').where({ operation_id: operationId }).orderBy('id').select('kind', 'status');
  return rows.map((row) => `${row.kind} ${row.status}`);
}

/** The trial balance: Σ debits = Σ credits over every account kind. */
export async function expectEvenTrialBalance(originatorId: string): Promise<void> {
  const lines = await new LedgerBalancesRepository(testDb(), originatorId).trialBalance(null);
  expect(Money.sum(lines.map((line) => line.debits)).toString()).to.equal(Money.sum(lines.map((line) => line.credits)).toString());
}

/** The originator's books as they stand: each transaction by key with its kind and status, and every account's posted balance. */
export async function booksOf(originatorId: string) {
  const transactions = await testDb()('ledger_transactions').where({ originator_id: originatorId }).orderBy('idempotency_key').select('idempotency_key', 'kind', 'status');
  return { transactions: transactions.map((t) => `${t.idempotency_key} ${t.kind} ${t.status}`), balances: await postedBalances(originatorId) };
}
