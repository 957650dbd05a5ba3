import { expect } from 'chai';
import { Money } from '../../domain/money';
import { accountKey, ACCOUNT_KINDS, BANK_CASH, NORMAL_BALANCE, pspCash } from '../../domain/ledger/chart';
import { imbalance, reversal, transaction, TransactionSpec } from '../../domain/ledger/transaction';
import { acquisition, netting, payout, payoutDifference } from '../../domain/ledger/disbursement-postings';
import { accrual, overdueRecourse, payerPayment, refund, unidentifiedReceipt } from '../../domain/ledger/collection-postings';
import { discountCredit, manualPayable, payablePayment, writeOff } from '../../domain/ledger/payable-postings';
import { fundingPosting } from '../../domain/ledger/funding-postings';

const at = new Date('2026-11-28T12:00:00Z');
const m = (value: string) => Money.of(value);
const title = { titleId: 't1', operationId: 'o1', assignorId: 'a1' };
const payable = { payableId: 'p1', assignorId: 'a1' };

/** Each entry as `direction account-key amount`. */
const lines = (spec: TransactionSpec) => spec.entries.map((e) => `${e.direction} ${accountKey(e.account)} ${e.amount.toString()}`);

describe('the chart of accounts', () => {
  it('gives every kind a normal balance, assets and expenses on the debit side', () => {
    expect(Object.keys(NORMAL_BALANCE).sort()).to.deep.equal([...ACCOUNT_KINDS].sort());
    const debit = ACCOUNT_KINDS.filter((kind) => NORMAL_BALANCE[kind] === 'debit');
    expect(debit).to.deep.equal(['psp_cash', 'bank_cash', 'title_receivable', 'assignor_payable', 'discount_credit_expense', 'write_off_expense', 'psp_fee_expense']);
  });

  it('names one account per PSP, title, operation or payable, and one of every other kind', () => {
    expect(accountKey(pspCash('payout'))).to.equal('psp_cash:payout');
    expect(accountKey({ kind: 'title_receivable', ...title })).to.equal('title_receivable:t1');
    expect(accountKey({ kind: 'assignor_price_payable', operationId: 'o1', assignorId: 'a1' })).to.equal('assignor_price_payable:o1');
    expect(accountKey({ kind: 'assignor_payable', ...payable })).to.equal('assignor_payable:p1');
    expect(accountKey({ kind: 'discount_income' })).to.equal('discount_income');
  });
});

describe('the transactions, built from the business facts', () => {
  it('acquisition: Dr receivable R / Cr unearned discount D / Cr price payable L = R − D, keyed by the title', () => {
    const spec = acquisition({ ...title, requested: m('1000.00'), discount: m('37.41') }, at);
    expect(spec).to.include({ kind: 'acquisition', status: 'posted', idempotencyKey: 'acquisition:t1' });
    expect(lines(spec)).to.deep.equal(['debit title_receivable:t1 1000.00', 'credit unearned_discount:t1 37.41', 'credit assignor_price_payable:o1 962.59']);
    expect(spec.entries.every((e) => e.operationId === 'o1' && e.titleId === 't1')).to.equal(true);
  });

  it('netting and payout are pending transfers out of the price payable', () => {
    const net = netting({ lineId: 'l1', operationId: 'o1', assignorId: 'a1', payableId: 'p1', amount: m('100.00') }, at);
    expect(net).to.include({ status: 'pending', idempotencyKey: 'netting:l1' });
    expect(lines(net)).to.deep.equal(['debit assignor_price_payable:o1 100.00', 'credit assignor_payable:p1 100.00']);
    const pix = payout({ disbursementId: 'd1', operationId: 'o1', assignorId: 'a1', amount: m('862.59') }, at);
    expect(pix).to.include({ status: 'pending', idempotencyKey: 'payout:d1' });
    expect(lines(pix)).to.deep.equal(['debit assignor_price_payable:o1 862.59', 'credit psp_cash:payout 862.59']);
  });

  it('a settlement for another amount posts the difference to suspense, either way; none when equal', () => {
    const attempt = { disbursementId: 'd1', operationId: 'o1', assignorId: 'a1', amount: m('500.00') };
    expect(lines(payoutDifference(attempt, m('500.10'), at)!)).to.deep.equal(['debit unidentified_receipts 0.10', 'credit psp_cash:payout 0.10']);
    expect(lines(payoutDifference(attempt, m('499.00'), at)!)).to.deep.equal(['debit psp_cash:payout 1.00', 'credit unidentified_receipts 1.00']);
    expect(payoutDifference(attempt, m('500.00'), at)).to.equal(null);
  });

  it('payer payment: received to cash, applied, late charges and excess credited; closing recognises the unearned rest', () => {
    const partial = payerPayment({ paymentId: 'y1', title, cash: pspCash('collection'), received: m('120.00'), applied: m('100.00'), lateCharges: m('15.00'), excess: m('5.00'), closesWithUnearned: Money.ZERO, endToEndId: 'E1' }, at);
    expect(lines(partial)).to.deep.equal(['debit psp_cash:collection 120.00', 'credit title_receivable:t1 100.00', 'credit late_charges_income 15.00', 'credit payer_overpayment 5.00']);
    expect(partial.references).to.include({ pixEndToEndId: 'E1' });
    const closing = payerPayment({ paymentId: 'y2', title, cash: BANK_CASH, received: m('900.00'), applied: m('900.00'), lateCharges: Money.ZERO, excess: Money.ZERO, closesWithUnearned: m('12.34') }, at);
    expect(lines(closing)).to.deep.equal(['debit bank_cash 900.00', 'debit unearned_discount:t1 12.34', 'credit title_receivable:t1 900.00', 'credit discount_income 12.34']);
    const afterRecourse = payerPayment({ paymentId: 'y3', title, cash: pspCash('collection'), received: m('50.00'), applied: m('50.00'), lateCharges: Money.ZERO, excess: Money.ZERO, closesWithUnearned: Money.ZERO, recoursePayableId: 'p1' }, at);
    expect(lines(afterRecourse)).to.deep.equal(['debit psp_cash:collection 50.00', 'credit assignor_payable:p1 50.00']);
  });

  it('refund, unidentified receipt and a day\'s accrual', () => {
    expect(refund({ refundId: 'r1', title, amount: m('5.00') }, at)).to.include({ status: 'pending', idempotencyKey: 'refund:r1' });
    expect(lines(refund({ refundId: 'r1', title, amount: m('5.00') }, at))).to.deep.equal(['debit payer_overpayment 5.00', 'credit psp_cash:collection 5.00']);
    expect(lines(unidentifiedReceipt({ receiptId: 'x1', amount: m('9.99'), endToEndId: 'E9' }, at))).to.deep.equal(['debit psp_cash:collection 9.99', 'credit unidentified_receipts 9.99']);
    const day = accrual(title, '2026-11-29', m('9.85'), at)!;
    expect(day.idempotencyKey).to.equal('accrual:t1:2026-11-29');
    expect(lines(day)).to.deep.equal(['debit unearned_discount:t1 9.85', 'credit discount_income 9.85']);
    expect(accrual(title, '2026-11-30', Money.ZERO, at)).to.equal(null);
  });

  it('overdue with recourse moves the open balance to the assignor\'s payable and recognises the unearned rest', () => {
    const spec = overdueRecourse({ title, payableId: 'p1', open: m('700.00'), unearnedLeft: m('3.21') }, at);
    expect(lines(spec)).to.deep.equal(['debit assignor_payable:p1 700.00', 'debit unearned_discount:t1 3.21', 'credit title_receivable:t1 700.00', 'credit discount_income 3.21']);
  });

  it('payable payment, write-off, discount credit and manual payable (a charge, or a repurchase of a title)', () => {
    expect(lines(payablePayment({ lineId: 'l2', payable, amount: m('40.00'), cash: pspCash('collection'), endToEndId: 'E2' }, at))).to.deep.equal(['debit psp_cash:collection 40.00', 'credit assignor_payable:p1 40.00']);
    expect(lines(payablePayment({ lineId: 'l3', payable, amount: m('40.00'), cash: BANK_CASH }, at))).to.deep.equal(['debit bank_cash 40.00', 'credit assignor_payable:p1 40.00']);
    expect(lines(writeOff({ payable, amount: m('60.00') }, at))).to.deep.equal(['debit write_off_expense 60.00', 'credit assignor_payable:p1 60.00']);
    expect(lines(discountCredit({ lineId: 'l4', creditId: 'c1', payable, amount: m('10.00') }, at))).to.deep.equal(['debit discount_credit_expense 10.00', 'credit assignor_payable:p1 10.00']);
    expect(lines(manualPayable({ payable, amount: m('80.00') }, at))).to.deep.equal(['debit assignor_payable:p1 80.00', 'credit assignor_charges_income 80.00']);
    const repurchase = manualPayable({ payable, amount: m('80.00'), repurchased: { titleId: 't1', operationId: 'o1', open: m('80.00'), unearnedLeft: m('0.00') } }, at);
    expect(lines(repurchase)).to.deep.equal(['debit assignor_payable:p1 80.00', 'credit title_receivable:t1 80.00']);
    expect(repurchase.entries.every((e) => e.titleId === 't1')).to.equal(true);
    // Asking more than the open balance charges the rest; the discount not yet earned is recognised.
    const dearer = manualPayable({ payable, amount: m('95.00'), repurchased: { titleId: 't1', operationId: 'o1', open: m('80.00'), unearnedLeft: m('3.10') } }, at);
    expect(lines(dearer)).to.deep.equal([
      'debit assignor_payable:p1 95.00', 'debit unearned_discount:t1 3.10',
      'credit title_receivable:t1 80.00', 'credit assignor_charges_income 15.00', 'credit discount_income 3.10',
    ]);
  });

  it('a PSP\'s own lines: top-up Dr cash / Cr funding, sweep and fee the other way, keyed by the PSP and its line id', () => {
    const booked = (kind: 'top_up' | 'sweep' | 'fee', psp: 'payout' | 'collection') => fundingPosting({ psp, kind, lineId: 'L1', amount: m('25.00'), at });
    expect(lines(booked('top_up', 'payout'))).to.deep.equal(['debit psp_cash:payout 25.00', 'credit funding_transfers 25.00']);
    expect(lines(booked('sweep', 'collection'))).to.deep.equal(['debit funding_transfers 25.00', 'credit psp_cash:collection 25.00']);
    expect(lines(booked('fee', 'payout'))).to.deep.equal(['debit psp_fee_expense 25.00', 'credit psp_cash:payout 25.00']);
    expect(booked('fee', 'collection')).to.deep.include({ kind: 'psp_fee', idempotencyKey: 'psp_fee:collection:L1', status: 'posted', effectiveAt: at, references: { externalId: 'L1' } });
    expect(booked('top_up', 'collection').idempotencyKey).to.not.equal(booked('top_up', 'payout').idempotencyKey);
  });

  it('a reversal swaps every side under a key derived from the original\'s', () => {
    const original = acquisition({ ...title, requested: m('1000.00'), discount: m('37.41') }, at);
    const undo = reversal(original, at);
    expect(undo).to.include({ kind: 'reversal', idempotencyKey: 'reversal:acquisition:t1', reverses: 'acquisition:t1', status: 'posted' });
    expect(lines(undo)).to.deep.equal(['credit title_receivable:t1 1000.00', 'debit unearned_discount:t1 37.41', 'debit assignor_price_payable:o1 962.59']);
    expect(imbalance(undo.entries).isZero()).to.equal(true);
  });

  it('refuses to build a transaction that does not balance or moves one account only', () => {
    const head = { kind: 'reversal' as const, idempotencyKey: 'k', status: 'posted' as const, effectiveAt: at, references: {} };
    expect(() => transaction(head, [{ account: BANK_CASH, amount: m('1.00') }], [{ account: { kind: 'fee_income' }, amount: m('0.99') }])).to.throw(/differ by 0.01/);
    expect(() => transaction(head, [{ account: BANK_CASH, amount: m('1.00') }], [{ account: { kind: 'fee_income' }, amount: Money.ZERO }])).to.throw(/fewer than two/);
  });
});
