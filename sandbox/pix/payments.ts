import { randomUUID } from 'node:crypto';
import { Money } from '../../domain/money';
import type { Background } from '../background';
import { FaultBook, MAGIC } from '../magic';
import { notFound, Refusal, Replays } from '../http';
import { endToEndId } from '../end-to-end-id';
import { AccountLines, type AccountLine } from '../account-lines';

export interface BankAccount {
  code: string;
  agency: string;
  account: string;
  type: string;
}

export interface Recipient {
  name: string;
  document: string;
  email: string | null;
  pixKey: string | null;
  bank: BankAccount | null;
}

export interface NewPayment {
  idempotencyKey: string;
  amount: string;
  recipient: Recipient;
  callbackUrl: string | null;
}

export interface Payment extends NewPayment {
  id: string;
  status: 'PENDING' | 'SETTLED' | 'REJECTED';
  settledAmount: string | null;
  rejectionReason: string | null;
  createdAt: string;
  settledAt: string | null;
  /** The SPI's id of the transfer, given at settlement (absent in state files written before statements). */
  endToEndId?: string | null;
  /** How many create requests carried this payment's key: retries are visible, payments are not doubled. */
  requestCount: number;
}

export interface SettlementDelays {
  normalMs: number;
  slowMs: number;
}

/** A payment accepted but not settled yet: its outcome is decided at acceptance. */
interface Settlement {
  paymentId: string;
  rejected: boolean;
  /** Settles one cent short of the amount (a snapshot from before this field reads as false). */
  short?: boolean;
  dueAt: number;
}

export interface PixSnapshot {
  payments: Payment[];
  pending: Settlement[];
  /** Top-ups, sweeps and fees (absent in state files written before them). */
  lines?: AccountLine[];
}

/** The simulated PIX provider's payments, deduplicated by idempotency key; `snapshot()`/`restore()` carry them across restarts. */
export class PixLedger {
  private readonly payments = new Map<string, Payment>();
  private readonly byKey = new Replays<Payment>();
  private readonly pending = new Map<string, Settlement>();
  /** The account's top-ups, sweeps and fees: no payment causes them. */
  readonly accountLines = new AccountLines();

  constructor(
    private readonly faults: FaultBook,
    private readonly background: Background,
    private readonly delays: SettlementDelays,
    private readonly onSettled: (payment: Payment) => void,
  ) {}

  create(input: NewPayment): { value: Payment; replayed: boolean } {
    const result = this.byKey.run(input.idempotencyKey, () => this.open(input));
    const payment = result.value;
    if (result.replayed) {
      if (payment.amount !== input.amount || payment.recipient.document !== input.recipient.document) {
        throw new Refusal(409, 'idempotency_key_reused', 'this idempotency key was used for another amount or recipient');
      }
      payment.requestCount += 1;
    }
    return result;
  }

  find(paymentId: string): Payment {
    const payment = this.payments.get(paymentId);
    if (!payment) throw notFound('payment');
    return payment;
  }

  withKey(idempotencyKey: string): Payment[] {
    return [...this.payments.values()].filter((p) => p.idempotencyKey === idempotencyKey);
  }

  /**
   * The account's statement: each payment settled in [from, to) as a line out (oldest first), the
   * account's own lines (top-ups, sweeps, fees) in the span, and the balance at `to`: what was
   * paid out, negative, plus what those lines added.
   */
  statement(from: Date, to: Date): { payments: Payment[]; accountLines: AccountLine[]; closingBalance: Money } {
    const settledBefore = (at: number) => [...this.payments.values()]
      .filter((p) => p.status === 'SETTLED' && p.settledAt !== null && Date.parse(p.settledAt) < at && !Money.of(p.settledAmount ?? '0').isZero());
    const payments = settledBefore(to.getTime()).filter((p) => Date.parse(p.settledAt!) >= from.getTime())
      .sort((a, b) => Date.parse(a.settledAt!) - Date.parse(b.settledAt!));
    const paidOut = Money.sum(settledBefore(to.getTime()).map((p) => Money.of(p.settledAmount!)));
    return { payments, accountLines: this.accountLines.between(from, to), closingBalance: this.accountLines.netBefore(to).minus(paidOut) };
  }

  /**
   * Test hook: the provider loses the payment (a restored backup), unsettled: every later read of
   * it answers 404 and a lookup by its idempotency key finds nothing.
   */
  forget(paymentId: string): void {
    const payment = this.find(paymentId);
    this.payments.delete(paymentId);
    this.pending.delete(paymentId);
    this.byKey.forget(payment.idempotencyKey);
  }

  snapshot(): PixSnapshot {
    return { payments: [...this.payments.values()], pending: [...this.pending.values()], lines: this.accountLines.snapshot() };
  }

  /** A settlement that fell due while the provider was down happens at once. */
  restore(snapshot: PixSnapshot): void {
    for (const payment of snapshot.payments) {
      this.payments.set(payment.id, payment);
      this.byKey.restore(payment.idempotencyKey, payment);
    }
    for (const settlement of snapshot.pending) this.schedule(this.payments.get(settlement.paymentId)!, settlement);
    this.accountLines.restore(snapshot.lines);
  }

  /** The outcome is decided when the payment is accepted, so a `-once` magic value counts payments, not polls. */
  private open(input: NewPayment): Payment {
    const emails = [input.recipient.email];
    const rejected = this.faults.applies(MAGIC.pixReject, emails);
    const short = !rejected && this.faults.applies(MAGIC.pixShort, emails);
    const delay = this.faults.applies(MAGIC.pixSlow, emails) ? this.delays.slowMs : this.delays.normalMs;
    const payment: Payment = {
      ...input, id: randomUUID(), status: 'PENDING', settledAmount: null, rejectionReason: null,
      createdAt: new Date().toISOString(), settledAt: null, requestCount: 1,
    };
    this.payments.set(payment.id, payment);
    this.schedule(payment, { paymentId: payment.id, rejected, short, dueAt: Date.now() + delay });
    return payment;
  }

  private schedule(payment: Payment, settlement: Settlement): void {
    this.pending.set(payment.id, settlement);
    this.background.after(Math.max(0, settlement.dueAt - Date.now()), () => this.settle(payment, settlement));
  }

  private settle(payment: Payment, { rejected, short }: Settlement): void {
    if (!this.payments.has(payment.id)) return; // forgotten meanwhile
    this.pending.delete(payment.id);
    payment.status = rejected ? 'REJECTED' : 'SETTLED';
    payment.settledAmount = rejected ? '0.00' : short ? Money.of(payment.amount).minus(Money.of('0.01')).toString() : payment.amount;
    payment.rejectionReason = rejected ? `recipient institution refused the transfer (sandbox magic value ${MAGIC.pixReject})` : null;
    payment.settledAt = new Date().toISOString();
    payment.endToEndId = rejected ? null : endToEndId(new Date(payment.settledAt));
    this.onSettled(payment);
  }
}
