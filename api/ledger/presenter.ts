import type { AccountWithBalances, TrialBalanceLine } from '../../db/repositories/ledger-balances';
import { Money } from '../../domain/money';
import type { Schema } from '../openapi/contract-types';

export function presentAccount(account: AccountWithBalances, asOf: Date): Schema<'LedgerAccount'> {
  return {
    id: account.id,
    kind: account.kind,
    normal_balance: account.normalBalance,
    psp: account.psp as Schema<'LedgerAccount'>['psp'],
    operation_id: account.operationId,
    title_id: account.titleId,
    payable_id: account.payableId,
    assignor_id: account.assignorId,
    posted: account.posted.toString(),
    pending: account.pending.toString(),
    available: account.available.toString(),
    as_of: asOf.toISOString(),
    created_at: account.createdAt.toISOString(),
  };
}

export function presentTrialBalance(lines: TrialBalanceLine[], asOf: Date): Schema<'TrialBalance'> {
  return {
    as_of: asOf.toISOString(),
    lines: lines.map((line) => ({ kind: line.kind, debits: line.debits.toString(), credits: line.credits.toString() })),
    debits: Money.sum(lines.map((line) => line.debits)).toString(),
    credits: Money.sum(lines.map((line) => line.credits)).toString(),
  };
}
