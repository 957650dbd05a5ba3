import type { Knex } from 'knex';
import { Money } from '../domain/money';
import { fromColumns } from './repositories/columns';
import { Disbursement } from './repositories/disbursements';
import { OperationBooks } from './repositories/ledger-operation-books';
import { PayableBooks } from './repositories/ledger-payable-books';
import { TitleBooks } from './repositories/ledger-title-books';
import { payableOf, PayableRow } from './repositories/payables';
import type { PayablePaymentRow } from './repositories/payables-ledger';
import type { TitlePaymentRow } from './repositories/title-payments';

/** States an operation is in only after SIGNED → DISBURSING, when its titles were bought. */
const BOUGHT = ['DISBURSING', 'DISBURSEMENT_FAILED', 'PAID', 'SETTLED'];

type Rows = Record<string, unknown>[];

/**
 * Posts, for one originator, what the ledger would have posted had it existed: every transaction
 * under the key the live flows use, so what they already posted is found and left alone, and a
 * second run changes nothing. Times are the rows' own (when the payment was made, the payable
 * opened, the PIX settled).
 */
async function backfillOriginator(trx: Knex, originatorId: string): Promise<void> {
  const operations = new OperationBooks(trx, originatorId);
  const titles = new TitleBooks(trx, originatorId);
  const payables = new PayableBooks(trx, originatorId);
  const of = (table: string) => trx(table).where(`${table}.originator_id`, originatorId);
  const payableById = new Map((await of('assignor_payables').orderBy('created_at').orderBy('id')).map((row: Record<string, unknown>) => {
    const payable = payableOf(row)!;
    return [payable.id, payable];
  }));

  for (const payable of payableById.values()) if (payable.origin === 'MANUAL') await payables.openedByHand(payable, payable.createdAt);

  const ops: Rows = await of('operations').orderBy('created_at').orderBy('id');
  for (const op of ops) {
    const id = op.id as string;
    const lines = (await of('payable_payments').where({ operation_id: id, source: 'OPERATION_NETTING' }).orderBy('created_at').orderBy('id')).map((row: Record<string, unknown>) => fromColumns<PayablePaymentRow>(row));
    for (const line of lines) await operations.nettingDecided(id, op.assignor_id as string, [line], line.createdAt);
    const attempts = (await of('disbursements').where({ operation_id: id }).orderBy('attempt')).map((row: Record<string, unknown>) => fromColumns<Disbursement & { createdAt: Date }>(row));
    if (BOUGHT.includes(op.lifecycle_status as string) || attempts.length > 0) await operations.acquired(id, attempts[0]?.createdAt ?? (op.updated_at as Date));
    for (const attempt of attempts) {
      await operations.payoutOrdered(attempt, attempt.createdAt);
      if (attempt.status !== 'PENDING') await operations.payoutResolved(attempt, attempt.status, attempt.settledAmount, attempt.settledAt ?? attempt.createdAt);
    }
    if (op.lifecycle_status === 'DENIED' || op.lifecycle_status === 'CANCELLED') await operations.released(id, op.updated_at as Date);
  }

  // Payments close titles and recourse closes them too: both recognise what is unearned then, so they go in the order they happened.
  const collected = (title: Record<string, unknown>) => ({ titleId: title.id as string, operationId: title.operation_id as string, assignorId: title.assignor_id as string });
  const titleById = new Map((await of('titles')).map((row: Record<string, unknown>) => [row.id as string, row]));
  const closings: { at: Date; post: () => Promise<void> }[] = [];
  for (const row of await of('title_payments')) {
    const payment = fromColumns<TitlePaymentRow>(row);
    const title = collected(titleById.get(payment.titleId)!);
    closings.push({
      at: payment.paidAt,
      post: async () => {
        await titles.paid(title, payment);
        // A PIX's excess is refunded as soon as the payment is applied.
        if (payment.channel === 'PIX' && !Money.of(payment.refundedBrl).isZero()) await titles.refunded(payment.externalId, payment.paidAt);
      },
    });
  }
  for (const payable of payableById.values()) {
    if (payable.origin !== 'TITLE_OVERDUE' || !payable.originTitleId) continue;
    const title = collected(titleById.get(payable.originTitleId)!);
    closings.push({ at: payable.createdAt, post: () => titles.overdue(title, payable.id, Money.of(payable.amount), payable.createdAt) });
  }
  closings.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const closing of closings) await closing.post();

  const debits: Rows = await of('payable_payments').whereNot({ source: 'OPERATION_NETTING' }).orderBy('created_at').orderBy('id');
  for (const row of debits) {
    const line = fromColumns<PayablePaymentRow>(row);
    await payables.debited(payableById.get(line.payableId)!, line, line.createdAt);
  }
  for (const payable of payableById.values()) {
    if (payable.status !== 'WRITTEN_OFF') continue;
    const forgiven: PayableRow = { ...payable, remaining: payable.writtenOffAmount };
    await payables.writtenOff(forgiven, payable.settledAt ?? payable.updatedAt);
  }
}

/** `npm run ledger:backfill`: every originator's books, one database transaction each; the number of transactions it recorded. */
export async function backfillLedger(db: Knex): Promise<number> {
  const count = async () => Number((await db('ledger_transactions').count<{ count: string }[]>({ count: '*' }))[0].count);
  const before = await count();
  for (const { id } of await db('originators').orderBy('id').select('id')) {
    await db.transaction((trx) => backfillOriginator(trx, id));
  }
  return (await count()) - before;
}
