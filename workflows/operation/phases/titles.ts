import { ActivityFailure, allHandlersFinished, condition, log, patched, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { PayerPaymentInput, PayerPaymentResult, TrackedTitle } from '../../../domain/lifecycle-messages';
import { CLOSED_TITLE_STATUSES, NOT_PAYABLE_YET, payerPaymentRefusal, Refusal } from '../../../domain/title-rules';
import { payerPaymentUpdate, RecordedPayment, TitlePaymentInput } from '../messages';
import { OperationRun, refuse } from '../operation-run';
import { NEXT_TITLE_DEADLINE, OPEN_TITLES } from '../../../domain/search-attributes';
import { titleActivities } from '../../title-activities';
import { collectionActivities } from '../../collection-activities';
import { OverdueTimer } from './overdue-timer';
import { paymentInformActivities } from '../proxies';

/** Runs that reach PAID from here on issue a PIX charge per title, */
export const PIX_CHARGES_PATCH = 'pix-charges-per-title';
/** and close a title's charge when the title closes. */
export const PIX_CHARGE_CLOSE_PATCH = 'pix-charge-close';
/** Runs from here on inform the escriturador of each payment on a registered title, */
export const INFORM_PAYMENTS_PATCH = 'inform-registrar-of-payments';
/** and cancel our act on a title gone back to the assignor by recourse (OVERDUE: the assignor owes it). */
export const RECOURSE_ACT_PATCH = 'cancel-act-on-recourse';

/** What the escriturador is to be told: a payment applied, or that a title went back to the assignor. */
type RegistrarNews =
  | { kind: 'payment'; titleId: string; paymentId: string; amount: string; paidAt: string; paidInFull: boolean }
  | { kind: 'recourse'; titleId: string };

function refuseWith(refusal: Refusal): never {
  const message = typeof refusal.detail === 'string' ? refusal.detail : refusal.detail.message;
  return refuse(refusal.code, message, refusal.detail);
}

const isOpen = (title: TrackedTitle) => !CLOSED_TITLE_STATUSES.includes(title.status);

/**
 * From PAID until every title has closed (DESIGN.md §5): payer payments arrive as updates and move
 * a title WAITING_PAYMENT → PARTIALLY_PAID → PAID; the overdue timer (./overdue-timer.ts) turns what
 * is still unpaid at a deadline OVERDUE, which opens an assignor payable for that balance and locks
 * it. The last title closed, the operation is SETTLED.
 */
export class TitleTracking {
  private readonly titles = titleActivities();
  private readonly collection = collectionActivities();
  /** `<title id> <external_id>` → what it applied: a repeat answers the same without a second credit. */
  private readonly applied = new Map<string, RecordedPayment>();
  /** Titles a payment or the overdue move is changing: one change at a time per title. */
  private readonly changing = new Set<string>();
  private loaded: boolean;
  private published: { open: number; deadline: string | null } | null = null;
  /** Titles closed since the loop last ran whose PIX charge is to be removed. */
  private readonly chargesToClose = new Set<string>();
  private readonly overdue: OverdueTimer;
  private readonly registrar = paymentInformActivities();
  /** What the escriturador has not been told yet, in the order it happened. */
  private readonly registrarNews: RegistrarNews[] = [];

  constructor(private readonly run: OperationRun) {
    this.overdue = new OverdueTimer(run, () => this.openTitles());
    for (const payment of run.input.resumed?.payments ?? []) this.applied.set(`${payment.titleId} ${payment.input.externalId}`, payment);
    for (const titleId of run.input.resumed?.chargesToClose ?? []) this.chargesToClose.add(titleId);
    this.loaded = run.state.titles.length > 0;
  }

  install(): void {
    setHandler(payerPaymentUpdate, async ({ titleId, payment, audit }) => {
      // Accepted between the read model's PAID and the title read: wait for the titles.
      await condition(() => this.loaded || !this.mayBecomePayable());
      const title = this.tracked(titleId);
      return this.exclusively(titleId, async () => {
        const replay = this.earlier(titleId, payment);
        if (replay) return replay;
        this.check(title, payment);
        const { result, title: balance } = await this.titles.applyPayerPayment({ titleId, payment, appliedAt: this.run.now().toISOString(), ...this.run.at(), audit });
        this.applied.set(`${titleId} ${payment.externalId}`, { titleId, input: payment, result });
        Object.assign(title, balance);
        if (patched(INFORM_PAYMENTS_PATCH)) {
          this.registrarNews.push({ kind: 'payment', titleId, paymentId: result.paymentId, amount: result.paidAmountBrl, paidAt: result.paidAt, paidInFull: result.titleStatus === 'PAID' });
        }
        this.publish();
        this.closeChargeWhenClosed(title);
        return { ...result, idempotentReplay: false };
      });
    }, {
      validator: ({ titleId, payment }: TitlePaymentInput) => {
        if (!this.loaded && this.mayBecomePayable()) return;
        const title = this.tracked(titleId);
        if (!this.earlier(titleId, payment)) this.check(title, payment);
      },
    });
  }

  /**
   * The PIX just settled (the read model may already say PAID): titles are about to be tracked,
   * so a payment may wait for them. A PIX still pending is refused at once, not waited for.
   */
  private mayBecomePayable(): boolean {
    return this.run.activity.reconciling || this.run.status === 'PAID';
  }

  private tracked(titleId: string): TrackedTitle {
    const title = this.run.state.titles.find((t) => t.titleId === titleId);
    return title ?? refuseWith(NOT_PAYABLE_YET);
  }

  private earlier(titleId: string, payment: PayerPaymentInput): PayerPaymentResult | null {
    const seen = this.applied.get(`${titleId} ${payment.externalId}`);
    if (!seen) return null;
    const fields = (['paidAmountBrl', 'paidAt'] as const).filter((f) => seen.input[f] !== payment[f]);
    if (fields.length > 0) {
      refuseWith({
        code: 'external_id_reused_with_different_body',
        detail: {
          code: 'external_id_reused_with_different_body', message: `external_id ${payment.externalId} was already used with a different body`,
          fields: fields.map((f) => (f === 'paidAt' ? 'paid_at' : 'paid_amount_brl')),
        },
      });
    }
    return { ...seen.result, idempotentReplay: true };
  }

  private check(title: TrackedTitle, payment: PayerPaymentInput): void {
    const refusal = payerPaymentRefusal(title, payment.paidAmountBrl);
    if (refusal) refuseWith(refusal);
  }

  /** Payments and the overdue move change the same balance: one at a time, each on the state the previous left. */
  private async exclusively<T>(titleId: string, step: () => Promise<T>): Promise<T> {
    await condition(() => !this.changing.has(titleId));
    this.changing.add(titleId);
    try {
      return await step();
    } finally {
      this.changing.delete(titleId);
    }
  }

  private openTitles(): TrackedTitle[] {
    return this.run.state.titles.filter(isOpen);
  }

  /** On a test clock: nothing is due up to the clock's time, nothing is being applied, and some title is still open. */
  restsAtClockTime(): boolean {
    const deadline = this.overdue.deadline();
    return this.loaded && this.changing.size === 0 && this.chargesToClose.size === 0 && this.registrarNews.length === 0 && deadline !== null && !this.overdue.hasFired(deadline);
  }

  /** `OpenTitles` and `NextTitleDeadline`, upserted only when they change. */
  private publish(): void {
    const now = { open: this.openTitles().length, deadline: this.overdue.deadline() };
    if (this.published && this.published.open === now.open && this.published.deadline === now.deadline) return;
    const known = workflowInfo().typedSearchAttributes;
    this.published = now;
    if (known.get(OPEN_TITLES) === now.open && known.get(NEXT_TITLE_DEADLINE)?.toISOString() === now.deadline) return;
    upsertSearchAttributes([
      { key: OPEN_TITLES, value: now.open },
      { key: NEXT_TITLE_DEADLINE, value: now.deadline === null ? null : new Date(now.deadline) },
    ]);
  }

  /**
   * Resolves true when every title has closed, false when the operation's test clock was deleted
   * (tracking ends there); continues as new when the history has grown long.
   */
  async untilClosed(): Promise<boolean> {
    const { run } = this;
    if (!this.loaded) {
      run.state.titles = await this.titles.titleTrackingOfOperation({ operationId: run.input.operationId });
      this.loaded = true;
      if (patched(PIX_CHARGES_PATCH)) await this.issueCharges();
    }
    this.publish();
    for (;;) {
      await this.closeCharges();
      await this.tellRegistrar();
      const deadline = this.overdue.deadline();
      if (deadline === null) return true;
      if (run.clock?.state.deleted) return false;
      if (!this.overdue.hasFired(deadline)) {
        // Payments wake the loop only when nothing is left open, a charge is to close, or the escriturador is to be told.
        await this.overdue.wait(deadline, () => this.openTitles().length === 0 || this.chargesToClose.size > 0 || this.registrarNews.length > 0 || workflowInfo().continueAsNewSuggested);
        if (workflowInfo().continueAsNewSuggested && this.openTitles().length > 0) await this.continueAsNew();
        continue;
      }
      for (const title of this.overdue.fire(deadline)) {
        await this.exclusively(title.titleId, async () => {
          if (!isOpen(title)) return;
          Object.assign(title, await this.titles.markTitleOverdue({ titleId: title.titleId, ...run.at() }));
          if (title.status === 'OVERDUE' && patched(RECOURSE_ACT_PATCH)) this.registrarNews.push({ kind: 'recourse', titleId: title.titleId });
          this.closeChargeWhenClosed(title);
        });
      }
      this.publish();
    }
  }

  /** Histories recorded before the patch never close a charge, so they replay unchanged. */
  private closeChargeWhenClosed(title: TrackedTitle): void {
    if (!isOpen(title) && patched(PIX_CHARGE_CLOSE_PATCH)) this.chargesToClose.add(title.titleId);
  }

  /** Each closed title's charge in turn; one the PSP will not remove stays for support (the activity's failure says why). */
  private async closeCharges(): Promise<void> {
    for (const titleId of [...this.chargesToClose]) {
      this.chargesToClose.delete(titleId);
      try {
        await this.collection.closePixCharge({ titleId, ...this.run.at() });
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('PIX charge not closed', { titleId, error: err.cause?.message });
      }
    }
  }

  /**
   * Each news told to the escriturador in turn; one it will not take within the activity's tries
   * is left to the reconciliation (the activity's failure says why): titles are not held back.
   */
  private async tellRegistrar(): Promise<void> {
    for (let news = this.registrarNews.shift(); news; news = this.registrarNews.shift()) {
      try {
        if (news.kind === 'payment') await this.registrar.informRegistrarOfPayment(news);
        else await this.registrar.cancelTitleAct({ titleId: news.titleId });
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('escriturador not told', { kind: news.kind, titleId: news.titleId, error: err.cause?.message });
      }
    }
  }

  /** A PSP that stays down does not hold the titles back: they are tracked without charges. */
  private async issueCharges(): Promise<void> {
    try {
      await this.collection.issuePixCharges({ operationId: this.run.input.operationId });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      log.warn('PIX charges not issued', { operationId: this.run.input.operationId, error: err.cause?.message });
    }
  }

  private async continueAsNew(): Promise<never> {
    const { run } = this;
    do {
      await condition(allHandlersFinished);
      await this.tellRegistrar();
    } while (this.registrarNews.length > 0 || !allHandlersFinished());
    return run.continueAsNew('PAID', {
      contractAttempts: run.state.contractAttempts, disbursementAttempts: run.state.disbursementAttempts,
      titles: run.state.titles, payments: [...this.applied.values()],
      ...(this.chargesToClose.size > 0 ? { chargesToClose: [...this.chargesToClose] } : {}),
    });
  }
}
