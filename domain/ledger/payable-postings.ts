import type { Money } from '../money';
import type { CashAccount } from './chart';
import { transaction, TransactionSpec } from './transaction';

/** A payable of an assignor, as its account names it. */
export interface PayableRef {
  payableId: string;
  assignorId: string;
}

const payableAccount = (p: PayableRef) => ({ kind: 'assignor_payable' as const, payableId: p.payableId, assignorId: p.assignorId });
const none = { operationId: null, titleId: null };
const refs = (p: PayableRef) => ({ payableId: p.payableId, assignorId: p.assignorId });

/** The assignor paid: by PIX with an end-to-end id (the PSP's cash), otherwise a bank transfer staff entered. */
export function payablePayment(paid: { lineId: string; payable: PayableRef; amount: Money; cash: CashAccount; endToEndId?: string; externalId?: string }, effectiveAt: Date): TransactionSpec {
  return transaction(
    { kind: 'payable_payment', idempotencyKey: `payable_payment:${paid.lineId}`, status: 'posted', effectiveAt, references: { ...refs(paid.payable), pixEndToEndId: paid.endToEndId, externalId: paid.externalId } },
    [{ account: paid.cash, amount: paid.amount, ...none }],
    [{ account: payableAccount(paid.payable), amount: paid.amount, ...none }],
  );
}

/** What is forgiven is lost. */
export function writeOff(written: { payable: PayableRef; amount: Money }, effectiveAt: Date): TransactionSpec {
  return transaction(
    { kind: 'write_off', idempotencyKey: `write_off:${written.payable.payableId}`, status: 'posted', effectiveAt, references: refs(written.payable) },
    [{ account: { kind: 'write_off_expense' }, amount: written.amount, ...none }],
    [{ account: payableAccount(written.payable), amount: written.amount, ...none }],
  );
}

/** One payable line a discount credit settled. */
export function discountCredit(credited: { lineId: string; creditId: string; payable: PayableRef; amount: Money }, effectiveAt: Date): TransactionSpec {
  return transaction(
    { kind: 'discount_credit', idempotencyKey: `discount_credit:${credited.lineId}`, status: 'posted', effectiveAt, references: { ...refs(credited.payable), externalId: credited.creditId } },
    [{ account: { kind: 'discount_credit_expense' }, amount: credited.amount, ...none }],
    [{ account: payableAccount(credited.payable), amount: credited.amount, ...none }],
  );
}

/**
 * A payable opened by hand: a charge to the assignor, or the repurchase of a named title, whose
 * receivable it then holds (the title cannot also be paid by its payer).
 */
export function manualPayable(opened: { payable: PayableRef; amount: Money; repurchased?: { titleId: string; operationId: string } }, effectiveAt: Date): TransactionSpec {
  const title = opened.repurchased;
  const on = title ? { operationId: title.operationId, titleId: title.titleId } : none;
  const credit = title
    ? { account: { kind: 'title_receivable' as const, ...title, assignorId: opened.payable.assignorId }, amount: opened.amount, ...on }
    : { account: { kind: 'assignor_charges_income' as const }, amount: opened.amount, ...on };
  return transaction(
    { kind: 'manual_payable', idempotencyKey: `manual_payable:${opened.payable.payableId}`, status: 'posted', effectiveAt, references: { ...refs(opened.payable), ...(title ?? {}) } },
    [{ account: payableAccount(opened.payable), amount: opened.amount, ...on }],
    [credit],
  );
}
