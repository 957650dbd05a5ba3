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

/** A title a manual payable repurchases: what its payer still owed, and the discount it had not yet earned. */
export interface Repurchased {
  titleId: string;
  operationId: string;
  open: Money;
  unearnedLeft: Money;
}

/**
 * A payable opened by hand: a charge to the assignor, or the repurchase of a named open title.
 * A repurchase takes the title's open balance off its receivable (the payable holds it now; the
 * title takes no payer payment any more), charges what the payable asks beyond it, and
 * recognises the discount not yet earned, as a title closing does.
 */
export function manualPayable(opened: { payable: PayableRef; amount: Money; repurchased?: Repurchased }, effectiveAt: Date): TransactionSpec {
  const head = { kind: 'manual_payable' as const, idempotencyKey: `manual_payable:${opened.payable.payableId}`, status: 'posted' as const, effectiveAt };
  const title = opened.repurchased;
  if (!title) {
    return transaction({ ...head, references: refs(opened.payable) },
      [{ account: payableAccount(opened.payable), amount: opened.amount, ...none }], [{ account: { kind: 'assignor_charges_income' }, amount: opened.amount, ...none }]);
  }
  const on = { operationId: title.operationId, titleId: title.titleId };
  const accounts = { ...on, assignorId: opened.payable.assignorId };
  return transaction(
    { ...head, references: { ...refs(opened.payable), ...on } },
    [{ account: payableAccount(opened.payable), amount: opened.amount, ...on }, { account: { kind: 'unearned_discount', ...accounts }, amount: title.unearnedLeft, ...on }],
    [
      { account: { kind: 'title_receivable', ...accounts }, amount: title.open, ...on },
      { account: { kind: 'assignor_charges_income' }, amount: opened.amount.minus(title.open), ...on },
      { account: { kind: 'discount_income' }, amount: title.unearnedLeft, ...on },
    ],
  );
}
