import { ApplicationFailure } from '@temporalio/common';
import { LifecycleStatus, readModelMove } from '../../domain/operation-lifecycle';
import type { TitleStatus } from '../../domain/title-rules';
import type { PaymentChannel } from '../../domain/lifecycle-messages';
import { Money } from '../../domain/money';
import type { PayoutAttempt } from '../../domain/ledger/disbursement-postings';
import { BookedTitle, WorldBooks } from './world-books';
import { SefazWorld } from './sefaz-world';
import type { RegistrarWorld } from './registrar-world';
import { accrualSchedule, AccrualTerms, daysBetween } from '../../domain/ledger/accrual';
import { businessDate } from '../../domain/pricing';

/** How the stand-in e-sign provider answers the next dispatch: as it should, or refusing (the `esign-fail-create` sandbox value). */
export type DispatchMode = 'ok' | 'refuse';
/** How the stand-in PIX provider answers the next order: settled at once, pending until told, or refused. */
export type PixMode = 'settle' | 'pending' | 'refuse';

export interface WorldTitle {
  titleId: string;
  face: Money;
  /** D, the discount the model prices it at (DISCOUNT_RATE of its face): what the books earn on it. */
  discount: Money;
  outstanding: Money;
  paid: Money;
  status: TitleStatus;
  /** Workflow time from PAID until the title turns OVERDUE (a due date still in the future), or ≤ 0 (already past). */
  overdueAfterMs: number;
  /** external_id → amount applied: a second application of one external_id is a double credit. */
  applied: Map<string, Money>;
  /** The deadline the workflow was given when it began tracking the title (set at PAID). */
  overdueAt: string | null;
  /** On a test clock: the clock's time when tracking began. */
  trackedAt: string | null;
}

/** The model's pricing: every title is bought at its face less this share of it. */
const DISCOUNT_RATE = '0.03';

export interface PixPayment {
  key: string;
  attempt: number;
  status: 'PENDING' | 'SETTLED' | 'REJECTED';
}

/** A move the read model took, with who asked for it (the update's actor) when a request caused it. */
export interface ReadModelMove {
  from: LifecycleStatus;
  to: LifecycleStatus;
  actor: string | null;
}

/** A payment's id: one per title and external_id, as the real rows key it. */
export const paymentIdOf = (titleId: string, externalId: string) => `${titleId}-${externalId}`;

/** A run's own time: its test clock's when it lives on one (a PSP's settlement time and due dates are that clock's there), the test server's otherwise. */
export async function runTimeOf(world: OperationWorld, serverNow: () => Promise<number>): Promise<number> {
  return world.clock ? Date.parse(world.clock.frozenTime) : serverNow();
}

/**
 * One operation's rows and its providers, in memory: what the stand-in activities read and write
 * instead of Postgres, the e-sign provider and the PIX provider. Whatever the workflow asks that
 * the real rows or providers would refuse, or that breaks an invariant (a move the state table
 * does not allow, a second payment of one external_id, a second PIX settled), is written down in
 * `violations` as well as refused, so a model run fails on it even when the workflow copes.
 */
export class OperationWorld {
  status: LifecycleStatus;
  readonly moves: ReadModelMove[] = [];
  readonly violations: string[] = [];
  dispatchMode: DispatchMode = 'ok';
  pixMode: PixMode = 'settle';
  /** The document in force at the provider: its signers and how many have signed; null when none is. */
  document: { attempt: number; signers: number; signed: number; lost: boolean } | null = null;
  readonly pixPayments: PixPayment[] = [];
  readonly titles: WorldTitle[];
  /** Four-eyes (issue #29): how many approvers the operation needs, and who approved, in order. */
  approvalsRequired = 1;
  readonly approvals: string[] = [];
  /** Issue #26: the test clock the operation lives on, as its clock workflow last wrote it; null in real time. */
  clock: { frozenTime: string; status: 'ready' | 'advancing' } | null = null;
  /** The operation's ledger, as the stand-in activities post it. */
  readonly books = new WorldBooks();
  /** The row's `cancellation_reason` once CANCELLED: `requested`, or the reason of the check before the PIX that refused. */
  cancellationReason: string | null = null;
  /** The run's time when its PIX settled (the payout's effective time, from which its titles earn their discount). */
  paidOutAt: number | null = null;
  /** The business date of the latest daily accrual run, and how many titles it found earning. */
  accruedOn: string | null = null;
  accrualsRun = 0;
  /** Each applied payment's channel by its id (the `title_payments` column the real inform activity reads). */
  readonly paymentChannels = new Map<string, PaymentChannel>();

  constructor(
    readonly operationId: string, initialStatus: LifecycleStatus, readonly signers: number, titles: { face: string; overdueAfterMs: number }[],
    readonly sefaz = new SefazWorld([], null),
    /** Null: none of its titles is registrable, or its originator registers nowhere. */
    readonly registrar: RegistrarWorld | null = null,
  ) {
    this.status = initialStatus;
    this.titles = titles.map((t, i) => ({
      titleId: `${operationId}-t${i + 1}`, face: Money.of(t.face), discount: Money.of(Money.of(t.face).amount.times(DISCOUNT_RATE)), outstanding: Money.of(t.face), paid: Money.ZERO,
      status: 'WAITING_PAYMENT', overdueAfterMs: t.overdueAfterMs, applied: new Map(), overdueAt: null, trackedAt: null,
    }));
  }

  /** The read model's guarded move (activities/operations.ts `moveOperation`): false when already there or past it; a move off the table fails as it does there. */
  move(to: LifecycleStatus, actor: string | null): boolean {
    const decision = readModelMove(this.status, to);
    if (decision === 'refuse') {
      this.violations.push(`read model refused ${this.status} → ${to} (not in the state table)`);
      throw ApplicationFailure.nonRetryable(`cannot move ${this.status} to ${to}`, 'invalid_transition');
    }
    if (decision === 'done') return false;
    // One approval is the move itself; only four-eyes records approvals before it.
    const approvers = new Set(this.approvals).size;
    if (this.approvalsRequired > 1 && this.status === 'WAITING_APPROVAL' && to === 'PRE_APPROVED' && approvers < this.approvalsRequired) {
      this.violations.push(`approved with ${approvers} of the ${this.approvalsRequired} approvers it needs`);
    }
    this.moves.push({ from: this.status, to, actor });
    this.status = to;
    if (to === 'DENIED' || to === 'CANCELLED') for (const title of this.titles) title.status = 'CANCELLED';
    return true;
  }

  /** The approvals table keeps one row per approver: a second row of one person is the four-eyes rule broken. */
  recordApproval(userId: string): void {
    if (this.approvals.includes(userId)) this.violations.push(`${userId} recorded as approving twice`);
    this.approvals.push(userId);
  }

  title(titleId: string): WorldTitle {
    const title = this.titles.find((t) => t.titleId === titleId);
    if (!title) throw new Error(`no title ${titleId}`);
    return title;
  }

  settledPayments(): PixPayment[] {
    return this.pixPayments.filter((p) => p.status === 'SETTLED');
  }

  /** A title as its ledger accounts name it (the model's assignor is the operation's). */
  booked(title: WorldTitle): BookedTitle {
    return { titleId: title.titleId, operationId: this.operationId, assignorId: `${this.operationId}-assignor`, face: title.face, discount: title.discount };
  }

  /** A PIX attempt for the price, L = Σ (R − D). */
  payoutAttempt(attempt: number): PayoutAttempt {
    const price = Money.sum(this.titles.map((t) => t.face.minus(t.discount)));
    return { disbursementId: `${this.operationId}-pix-${attempt}`, operationId: this.operationId, assignorId: `${this.operationId}-assignor`, amount: price };
  }

  /**
   * How a title earns its discount (domain/ledger/accrual.ts): its price L = R − D, its face R, by
   * effective interest over the days from its payout to its due date (the model's titles float no days).
   */
  accrualTerms(title: WorldTitle): AccrualTerms | null {
    if (this.paidOutAt === null || title.overdueAt === null) return null;
    const days = daysBetween(businessDate(new Date(this.paidOutAt)), businessDate(new Date(title.overdueAt)));
    return { price: title.face.minus(title.discount), requested: title.face, days, method: 'effective_interest' };
  }

  /**
   * The daily accrual at `at` (activities/ledger-accrual.ts through db/repositories/ledger-accruals.ts):
   * each open title of a paid operation posts what it has earned to date.
   */
  runAccrual(at: number): void {
    if (this.status !== 'PAID' && this.status !== 'SETTLED') return;
    const day = businessDate(new Date(at));
    for (const title of this.openTitles()) {
      const terms = this.accrualTerms(title);
      if (terms && this.books.hasAcquired(title.titleId)) this.books.accrued(this.booked(title), terms, daysBetween(businessDate(new Date(this.paidOutAt!)), day), day, new Date(at));
    }
    this.accruedOn = day;
    this.accrualsRun += 1;
  }

  /**
   * What an open title has earned by the latest accrual run, by its schedule: the schedule's days up
   * to that date summed; from its due date on (a schedule of no day included), all of its discount.
   */
  incomeByLatestAccrual(title: WorldTitle): Money {
    const terms = this.accrualTerms(title);
    if (!terms || this.accruedOn === null) return Money.ZERO;
    const elapsed = daysBetween(businessDate(new Date(this.paidOutAt!)), this.accruedOn);
    if (elapsed >= terms.days && elapsed > 0) return title.discount;
    return Money.sum(accrualSchedule(terms).slice(0, Math.max(0, elapsed)));
  }

  openTitles(): WorldTitle[] {
    return this.titles.filter((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PARTIALLY_PAID');
  }
}
