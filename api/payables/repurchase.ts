import type { Knex } from 'knex';
import { RuleViolation } from '../../domain/errors';
import { Money } from '../../domain/money';
import { OperationsRepository } from '../../db/repositories/operations';
import type { PayableRow } from '../../db/repositories/payables';
import { TitleRecord, TrackedTitlesRepository } from '../../db/repositories/tracked-titles';
import { TitleBooks } from '../../db/repositories/ledger-title-books';
import { recordTitleEvent } from '../../db/repositories/record-events';

const OPEN = ['WAITING_PAYMENT', 'PARTIALLY_PAID'];

/**
 * The title a payable opened by hand repurchases, locked: still owed by its payer, its operation
 * PAID. Null when there is none to repurchase (the payable is then a charge). Refused when the
 * payable asks less than the title's open balance: forgiving part of it is a write-off, said apart.
 */
export async function titleToRepurchase(db: Knex, originatorId: string, title: { id: string; operationId: string }, amount: Money): Promise<TitleRecord | null> {
  if ((await new OperationsRepository(db, originatorId).byId(title.operationId))?.lifecycleStatus !== 'PAID') return null;
  const locked = await new TrackedTitlesRepository(db).lock(title.id);
  if (!locked || !OPEN.includes(locked.status)) return null;
  if (Money.of(locked.outstandingBalance).gt(amount)) {
    throw new RuleViolation({
      code: 'repurchase_below_open_balance', message: `A repurchase of ${amount} is less than the title's open balance of ${Money.of(locked.outstandingBalance)}`,
      amount_brl: amount.toString(), outstanding_balance: Money.of(locked.outstandingBalance).toString(),
    });
  }
  return locked;
}

/**
 * The payable holds the title's open balance from now on: the title closes as it does at the
 * deadline with recourse (OVERDUE, `title.overdue` naming the payable), so its payer's payments
 * are refused (409 `title_balance_locked`) and a PIX for it goes back whole.
 */
export async function repurchase(db: Knex, title: TitleRecord, payable: PayableRow, at: Date): Promise<void> {
  await new TrackedTitlesRepository(db).markOverdue(title.id, at);
  await new TitleBooks(db, title.originatorId).repurchased(
    { titleId: title.id, operationId: title.operationId, assignorId: title.assignorId }, { payableId: payable.id, assignorId: payable.assignorId },
    Money.of(payable.amount), Money.of(title.outstandingBalance), at,
  );
  await recordTitleEvent(db, title, 'title.overdue', {
    outstanding_balance: title.outstandingBalance, paid_amount_brl: title.paidAmount, due_date: title.dueDate, payable_id: payable.id,
  }, 0, at);
}
