import { Money } from '../money';
import { pspCash } from './chart';
import { transaction, TransactionSpec } from './transaction';

/** A title as the operation bought it: R, its requested value, and D, its discount (deságio). */
export interface AcquiredTitle {
  titleId: string;
  operationId: string;
  assignorId: string;
  requested: Money;
  discount: Money;
}

const receivable = (t: AcquiredTitle) => ({ kind: 'title_receivable' as const, titleId: t.titleId, operationId: t.operationId, assignorId: t.assignorId });
const unearned = (t: AcquiredTitle) => ({ kind: 'unearned_discount' as const, titleId: t.titleId, operationId: t.operationId, assignorId: t.assignorId });
const pricePayable = (operationId: string, assignorId: string) => ({ kind: 'assignor_price_payable' as const, operationId, assignorId });

/**
 * When the PIX is ordered (SIGNED → DISBURSING): the payer owes R, D is not yet earned and the
 * price L = R − D is owed to the assignor until it is paid out.
 */
export function acquisition(title: AcquiredTitle, effectiveAt: Date): TransactionSpec {
  const on = { operationId: title.operationId, titleId: title.titleId };
  return transaction(
    { kind: 'acquisition', idempotencyKey: `acquisition:${title.titleId}`, status: 'posted', effectiveAt, references: { ...on, assignorId: title.assignorId } },
    [{ account: receivable(title), amount: title.requested, ...on }],
    [{ account: unearned(title), amount: title.discount, ...on }, { account: pricePayable(title.operationId, title.assignorId), amount: title.requested.minus(title.discount), ...on }],
  );
}

/** One payable line that an operation's price settles (`payable_payments` of source OPERATION_NETTING). */
export interface Netting {
  lineId: string;
  operationId: string;
  assignorId: string;
  payableId: string;
  amount: Money;
}

/** Decided at creation, pending until the acquisition posts it; cancel or deny voids it. */
export function netting(line: Netting, effectiveAt: Date): TransactionSpec {
  const on = { operationId: line.operationId, titleId: null };
  return transaction(
    { kind: 'netting', idempotencyKey: `netting:${line.lineId}`, status: 'pending', effectiveAt, references: { operationId: line.operationId, payableId: line.payableId, assignorId: line.assignorId } },
    [{ account: pricePayable(line.operationId, line.assignorId), amount: line.amount, ...on }],
    [{ account: { kind: 'assignor_payable', payableId: line.payableId, assignorId: line.assignorId }, amount: line.amount, ...on }],
  );
}

/** One PIX attempt to the assignor (a `disbursements` row). */
export interface PayoutAttempt {
  disbursementId: string;
  operationId: string;
  assignorId: string;
  amount: Money;
}

/** Pending from the order; posted when the PSP settles it, voided only on a definitive refusal. */
export function payout(attempt: PayoutAttempt, effectiveAt: Date): TransactionSpec {
  const on = { operationId: attempt.operationId, titleId: null };
  return transaction(
    { kind: 'payout', idempotencyKey: `payout:${attempt.disbursementId}`, status: 'pending', effectiveAt, references: { operationId: attempt.operationId, assignorId: attempt.assignorId } },
    [{ account: pricePayable(attempt.operationId, attempt.assignorId), amount: attempt.amount, ...on }],
    [{ account: pspCash('payout'), amount: attempt.amount, ...on }],
  );
}

/**
 * A settlement for another amount than ordered: the cash moved by the difference, which waits in
 * suspense until a human explains it. Null when the amounts agree.
 */
export function payoutDifference(attempt: PayoutAttempt, settled: Money, effectiveAt: Date): TransactionSpec | null {
  const more = settled.minus(attempt.amount);
  if (more.isZero()) return null;
  const on = { operationId: attempt.operationId, titleId: null };
  const cash = { account: pspCash('payout'), ...on };
  const suspense = { account: { kind: 'unidentified_receipts' as const }, ...on };
  const head = { kind: 'payout_difference' as const, idempotencyKey: `payout_difference:${attempt.disbursementId}`, status: 'posted' as const, effectiveAt, references: { operationId: attempt.operationId, assignorId: attempt.assignorId } };
  if (more.isNegative()) {
    const less = Money.ZERO.minus(more);
    return transaction(head, [{ ...cash, amount: less }], [{ ...suspense, amount: less }]);
  }
  return transaction(head, [{ ...suspense, amount: more }], [{ ...cash, amount: more }]);
}
