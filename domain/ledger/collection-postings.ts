import type { Money } from '../money';
import { CashAccount, pspCash } from './chart';
import { Leg, transaction, TransactionSpec } from './transaction';

/** The title a collection concerns, as its accounts name it. */
export interface CollectedTitle {
  titleId: string;
  operationId: string;
  assignorId: string;
}

const receivable = (t: CollectedTitle) => ({ kind: 'title_receivable' as const, ...t });
const unearned = (t: CollectedTitle) => ({ kind: 'unearned_discount' as const, ...t });
const on = (t: CollectedTitle) => ({ operationId: t.operationId, titleId: t.titleId });

/** What closing a title recognises at once: the discount not yet accrued (Dr unearned / Cr income). */
const recognition = (title: CollectedTitle, unearnedLeft: Money): [Leg, Leg] => [
  { account: unearned(title), amount: unearnedLeft, ...on(title) },
  { account: { kind: 'discount_income' }, amount: unearnedLeft, ...on(title) },
];

/** Suspense, where a received PIX waits until it is applied or refunded. */
export const SUSPENSE = { kind: 'unidentified_receipts' } as const;

/** One payment by a title's payer: what arrived, and how it was applied (received = applied + late charges + excess). */
export interface PayerPayment {
  paymentId: string;
  title: CollectedTitle;
  /** Where the money is: the cash it arrived in, or suspense when the PIX had been held there (it leaves suspense now). */
  cash: CashAccount | typeof SUSPENSE;
  received: Money;
  applied: Money;
  lateCharges: Money;
  excess: Money;
  /** Set when the title had moved to recourse: the payment reduces the assignor's payable instead. */
  recoursePayableId?: string;
  /** The unearned discount left when this payment closes the title; zero otherwise. */
  closesWithUnearned: Money;
  endToEndId?: string;
  externalId?: string;
}

export function payerPayment(payment: PayerPayment, effectiveAt: Date): TransactionSpec {
  const { title } = payment;
  const applyTo = payment.recoursePayableId
    ? { kind: 'assignor_payable' as const, payableId: payment.recoursePayableId, assignorId: title.assignorId }
    : receivable(title);
  const [recognisedDebit, recognisedCredit] = recognition(title, payment.closesWithUnearned);
  return transaction(
    {
      kind: 'payer_payment', idempotencyKey: `payer_payment:${payment.paymentId}`, status: 'posted', effectiveAt,
      references: { ...on(title), assignorId: title.assignorId, payableId: payment.recoursePayableId, pixEndToEndId: payment.endToEndId, externalId: payment.externalId },
    },
    [{ account: payment.cash, amount: payment.received, ...on(title) }, recognisedDebit],
    [
      { account: applyTo, amount: payment.applied, ...on(title) },
      { account: { kind: 'late_charges_income' }, amount: payment.lateCharges, ...on(title) },
      { account: { kind: 'payer_overpayment' }, amount: payment.excess, ...on(title) },
      recognisedCredit,
    ],
  );
}

/** A PIX received that matches no charge: held in suspense until someone identifies it. */
export function unidentifiedReceipt(receipt: { receiptId: string; amount: Money; endToEndId: string }, effectiveAt: Date): TransactionSpec {
  const none = { operationId: null, titleId: null };
  return transaction(
    { kind: 'unidentified_receipt', idempotencyKey: `unidentified_receipt:${receipt.receiptId}`, status: 'posted', effectiveAt, references: { pixEndToEndId: receipt.endToEndId } },
    [{ account: pspCash('collection'), amount: receipt.amount, ...none }],
    [{ account: SUSPENSE, amount: receipt.amount, ...none }],
  );
}

export const refundKey = (refundId: string) => `refund:${refundId}`;

/**
 * Money returned to the payer by PIX, pending until the PSP settles it: an excess (or a whole PIX)
 * booked as an overpayment, or a whole PIX that was waiting in suspense.
 */
export function refund(refunded: { refundId: string; title: CollectedTitle; amount: Money; endToEndId?: string; fromSuspense?: boolean }, effectiveAt: Date): TransactionSpec {
  const { title } = refunded;
  return transaction(
    { kind: 'refund', idempotencyKey: refundKey(refunded.refundId), status: 'pending', effectiveAt, references: { ...on(title), assignorId: title.assignorId, pixEndToEndId: refunded.endToEndId } },
    [{ account: refunded.fromSuspense ? SUSPENSE : { kind: 'payer_overpayment' }, amount: refunded.amount, ...on(title) }],
    [{ account: pspCash('collection'), amount: refunded.amount, ...on(title) }],
  );
}

/** One day's discount earned (docs/ledger.md, "Accrual"); null on a day that earns nothing. */
export function accrual(title: CollectedTitle, day: string, amount: Money, effectiveAt: Date): TransactionSpec | null {
  if (amount.isZero()) return null;
  const [debit, credit] = recognition(title, amount);
  return transaction(
    { kind: 'accrual', idempotencyKey: `accrual:${title.titleId}:${day}`, status: 'posted', effectiveAt, references: { ...on(title), assignorId: title.assignorId } },
    [debit],
    [credit],
  );
}

/**
 * Overdue with recourse: the assignor now owes what the payer did not pay, and the title's
 * remaining discount is recognised as it closes.
 */
export function overdueRecourse(moved: { title: CollectedTitle; payableId: string; open: Money; unearnedLeft: Money }, effectiveAt: Date): TransactionSpec {
  const { title } = moved;
  const [recognisedDebit, recognisedCredit] = recognition(title, moved.unearnedLeft);
  return transaction(
    { kind: 'overdue_recourse', idempotencyKey: `overdue_recourse:${title.titleId}`, status: 'posted', effectiveAt, references: { ...on(title), assignorId: title.assignorId, payableId: moved.payableId } },
    [{ account: { kind: 'assignor_payable', payableId: moved.payableId, assignorId: title.assignorId }, amount: moved.open, ...on(title) }, recognisedDebit],
    [{ account: receivable(title), amount: moved.open, ...on(title) }, recognisedCredit],
  );
}
