import type { Knex } from 'knex';
import { Money } from '../../domain/money';
import { AssignorsRepository } from '../../db/repositories/assignors';
import { PayablesLedger } from '../../db/repositories/payables-ledger';
import { OperationBooks } from '../../db/repositories/ledger-operation-books';
import { PayablesRepository } from '../../db/repositories/payables';

/**
 * The assignor's open debt that a new operation nets out of its PIX amount (DESIGN.md §6,
 * `other_debt_discounts`): Σ remaining of its open payables. Creation locks them (`lock`), so the
 * figure priced is the figure settled; simulation only reads.
 */
export async function openDebtOf(trx: Knex, originatorId: string, assignorId: string, lock = true): Promise<Money> {
  const open = await new PayablesRepository(trx, originatorId).openOf(assignorId, lock);
  return Money.sum(open.map((payable) => Money.of(payable.remaining)));
}

/**
 * In the creation transaction: the netted amount settles the open payables oldest first, the
 * operation as their source, each line booked as a pending netting until the acquisition.
 */
export async function settleNettedDebt(trx: Knex, input: { originatorId: string; assignorId: string; operationId: string; amount: Money | null; at?: Date }): Promise<void> {
  if (!input.amount || input.amount.isZero()) return;
  const at = input.at ?? new Date();
  const lines = await new PayablesLedger(trx, input.originatorId).debitOldestFirst(input.assignorId, input.amount, { source: 'OPERATION_NETTING', operationId: input.operationId, at });
  await new OperationBooks(trx, input.originatorId).nettingDecided(input.operationId, input.assignorId, lines, at);
}

/** What simulation shows for an assignor named by document, settling nothing; none when not registered. */
export async function openDebtByDocument(db: Knex, originatorId: string, document: string): Promise<Money> {
  const assignor = await new AssignorsRepository(db, originatorId).byDocument(document);
  return assignor ? openDebtOf(db, originatorId, assignor.id, false) : Money.ZERO;
}
