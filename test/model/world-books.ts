import { Money } from '../../domain/money';
import { accountKey, BANK_CASH, NORMAL_BALANCE } from '../../domain/ledger/chart';
import { acquisition, payout, PayoutAttempt } from '../../domain/ledger/disbursement-postings';
import { accrual, CollectedTitle, overdueRecourse, payerPayment } from '../../domain/ledger/collection-postings';
import { accrualDue, type AccrualTerms } from '../../domain/ledger/accrual';
import { imbalance, reversal, TransactionSpec, TransactionStatus } from '../../domain/ledger/transaction';

/** What a model title's books are made of: R, its face, and D, the discount the model prices it at. */
export interface BookedTitle extends CollectedTitle {
  face: Money;
  discount: Money;
}

/**
 * One operation's ledger in memory, posted by the stand-in activities at the moments the real ones
 * post (db/repositories/ledger-*-books.ts) with the same domain builders, and read by the
 * invariants: each transaction once per key, pending ones posted or voided once.
 */
export class WorldBooks {
  private readonly transactions = new Map<string, { spec: TransactionSpec; status: TransactionStatus }>();

  private post(spec: TransactionSpec | null): void {
    if (spec && !this.transactions.has(spec.idempotencyKey)) this.transactions.set(spec.idempotencyKey, { spec, status: spec.status });
  }

  private resolve(key: string, to: Exclude<TransactionStatus, 'pending'>): void {
    const recorded = this.transactions.get(key);
    if (recorded?.status === 'pending') recorded.status = to;
  }

  acquired(titles: readonly BookedTitle[], at: Date): void {
    for (const t of titles) this.post(acquisition({ ...t, requested: t.face }, at));
  }

  payoutOrdered(attempt: PayoutAttempt, at: Date): void {
    this.post(payout(attempt, at));
  }

  payoutResolved(attempt: PayoutAttempt, status: 'SETTLED' | 'REJECTED', at: Date): void {
    this.resolve(payout(attempt, at).idempotencyKey, status === 'SETTLED' ? 'posted' : 'voided');
  }

  /** Denied or cancelled: every acquisition reversed, every pending payout voided. */
  released(at: Date): void {
    for (const [key, { spec, status }] of [...this.transactions]) {
      if (spec.kind === 'acquisition' && status === 'posted') this.post(reversal(spec, at));
      if (spec.kind === 'payout') this.resolve(key, 'voided');
    }
  }

  /** A staff payment (the model's payer payments reach no PSP); closing the title recognises its unearned rest. */
  paid(title: BookedTitle, paymentId: string, amount: Money, closes: boolean, at: Date): void {
    this.post(payerPayment({
      paymentId, title, cash: BANK_CASH, received: amount, applied: amount, lateCharges: Money.ZERO, excess: Money.ZERO,
      closesWithUnearned: closes ? this.posted(`unearned_discount:${title.titleId}`) : Money.ZERO,
    }, at));
  }

  overdue(title: BookedTitle, payableId: string, open: Money, at: Date): void {
    this.post(overdueRecourse({ title, payableId, open, unearnedLeft: this.posted(`unearned_discount:${title.titleId}`) }, at));
  }

  /**
   * The daily accrual of an open title on business date `day`, `elapsed` days after its payout
   * (db/repositories/ledger-accruals.ts): its income to date less what it has earned already, once per title and day.
   */
  accrued(title: BookedTitle, terms: AccrualTerms, elapsed: number, day: string, at: Date): void {
    const due = accrualDue(terms, elapsed, this.incomeOf(title.titleId));
    if (due.gt(Money.ZERO)) this.post(accrual(title, day, due, at));
  }

  /** An account's posted balance on its normal side, by key (`title_receivable:<title>`...); zero for one never moved. */
  posted(key: string): Money {
    let balance = Money.ZERO;
    for (const { spec, status } of this.transactions.values()) {
      if (status !== 'posted') continue;
      for (const entry of spec.entries) {
        if (accountKey(entry.account) !== key) continue;
        balance = entry.direction === NORMAL_BALANCE[entry.account.kind] ? balance.plus(entry.amount) : balance.minus(entry.amount);
      }
    }
    return balance;
  }

  /** The title's own share of `discount_income`: what its entries credited there. */
  incomeOf(titleId: string): Money {
    return Money.sum([...this.transactions.values()].filter(({ status }) => status === 'posted')
      .flatMap(({ spec }) => spec.entries.filter((e) => e.account.kind === 'discount_income' && e.titleId === titleId)
        .map((e) => (e.direction === 'credit' ? e.amount : Money.ZERO.minus(e.amount)))));
  }

  /** The keys of transactions whose debits and credits differ. */
  unbalanced(): string[] {
    return [...this.transactions.values()].filter(({ spec }) => !imbalance(spec.entries).isZero()).map(({ spec }) => spec.idempotencyKey);
  }

  /** How many transactions of `kind` were posted. */
  count(kind: TransactionSpec['kind']): number {
    return [...this.transactions.values()].filter(({ spec, status }) => spec.kind === kind && status === 'posted').length;
  }

  hasAcquired(titleId: string): boolean {
    return this.transactions.get(`acquisition:${titleId}`)?.status === 'posted';
  }
}
