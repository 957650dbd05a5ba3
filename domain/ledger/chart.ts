/**
 * The chart of accounts every originator's books share (docs/ledger.md): each kind, which side
 * its balance normally sits on, and what makes one account of a kind distinct (its PSP, title,
 * operation or payable; the other kinds have one account per originator).
 */
export const ACCOUNT_KINDS = [
  'psp_cash', 'bank_cash', 'title_receivable', 'unearned_discount', 'discount_income', 'late_charges_income', 'fee_income',
  'assignor_price_payable', 'assignor_payable', 'assignor_charges_income', 'payer_overpayment', 'unidentified_receipts',
  'discount_credit_expense', 'write_off_expense', 'funding_transfers', 'psp_fee_expense',
] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export type Direction = 'debit' | 'credit';

export const NORMAL_BALANCE: Readonly<Record<AccountKind, Direction>> = {
  psp_cash: 'debit',
  bank_cash: 'debit',
  title_receivable: 'debit',
  unearned_discount: 'credit',
  discount_income: 'credit',
  late_charges_income: 'credit',
  fee_income: 'credit',
  assignor_price_payable: 'credit',
  assignor_payable: 'debit',
  assignor_charges_income: 'credit',
  payer_overpayment: 'credit',
  unidentified_receipts: 'credit',
  discount_credit_expense: 'debit',
  write_off_expense: 'debit',
  funding_transfers: 'credit',
  psp_fee_expense: 'debit',
};

/** The PSP accounts we see: the one that pays assignors out and the one that collects from payers. */
export const PSPS = ['payout', 'collection'] as const;
export type Psp = (typeof PSPS)[number];

/** One account, named by what it holds; `accountKey` turns it into its unique name in the originator's books. */
export type AccountRef =
  | { kind: 'psp_cash'; psp: Psp }
  | { kind: 'title_receivable' | 'unearned_discount'; titleId: string; operationId: string; assignorId: string }
  | { kind: 'assignor_price_payable'; operationId: string; assignorId: string }
  | { kind: 'assignor_payable'; payableId: string; assignorId: string }
  | { kind: Exclude<AccountKind, 'psp_cash' | 'title_receivable' | 'unearned_discount' | 'assignor_price_payable' | 'assignor_payable'> };

export function accountKey(ref: AccountRef): string {
  switch (ref.kind) {
    case 'psp_cash': return `psp_cash:${ref.psp}`;
    case 'title_receivable':
    case 'unearned_discount': return `${ref.kind}:${ref.titleId}`;
    case 'assignor_price_payable': return `${ref.kind}:${ref.operationId}`;
    case 'assignor_payable': return `${ref.kind}:${ref.payableId}`;
    default: return ref.kind;
  }
}

/** Where money that did not pass through a PSP we see is booked: a staff-entered transfer. */
export type CashAccount = { kind: 'psp_cash'; psp: Psp } | { kind: 'bank_cash' };

export const pspCash = (psp: Psp): CashAccount => ({ kind: 'psp_cash', psp });
export const BANK_CASH: CashAccount = { kind: 'bank_cash' };

/** An account as stored: its kind and whichever of its references it has. */
export interface StoredAccount {
  kind: AccountKind;
  psp: string | null;
  operationId: string | null;
  titleId: string | null;
  payableId: string | null;
  assignorId: string | null;
}

export function accountRefOf(stored: StoredAccount): AccountRef {
  switch (stored.kind) {
    case 'psp_cash': return { kind: 'psp_cash', psp: stored.psp as Psp };
    case 'title_receivable':
    case 'unearned_discount': return { kind: stored.kind, titleId: stored.titleId!, operationId: stored.operationId!, assignorId: stored.assignorId! };
    case 'assignor_price_payable': return { kind: stored.kind, operationId: stored.operationId!, assignorId: stored.assignorId! };
    case 'assignor_payable': return { kind: stored.kind, payableId: stored.payableId!, assignorId: stored.assignorId! };
    default: return { kind: stored.kind };
  }
}
