import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { AuditedRequest } from '../domain/audit-chain';
import { AuditEventsRepository } from '../db/repositories/audit-events';
import { Money } from '../domain/money';
import { businessDate } from '../domain/pricing';
import { recordTitleEvent } from '../db/repositories/record-events';
import { PayablesRepository } from '../db/repositories/payables';
import { TitlePaymentRow, TitlePaymentsRepository } from '../db/repositories/title-payments';
import { TitleRecord, TrackedTitlesRepository } from '../db/repositories/tracked-titles';
import { TitleBooks } from '../db/repositories/ledger-title-books';
import type { AppliedPayerPayment, PayerPaymentInput, TitleBalance, TrackedTitle } from '../domain/lifecycle-messages';
import { overdueAt, payerPaymentRefusal } from '../domain/title-rules';
import { afterCommit, titlesOverdue } from '../platform/telemetry/metrics';
import { stampOf } from './operations';

export interface TitleActivityDeps {
  db: Knex;
  config: Pick<Config, 'titles'>;
}

const collected = (title: TitleRecord) => ({ titleId: title.id, operationId: title.operationId, assignorId: title.assignorId });

const balanceOf = (title: TitleRecord): TitleBalance => ({ status: title.status, outstandingBalance: title.outstandingBalance, paidAmount: title.paidAmount });

function appliedOf(row: TitlePaymentRow): AppliedPayerPayment {
  return {
    paymentId: row.id, titleId: row.titleId, externalId: row.externalId, paidAmountBrl: row.amount, paidAt: row.paidAt.toISOString(),
    titleStatus: Money.of(row.remainingAfter).isZero() ? 'PAID' : 'PARTIALLY_PAID', remaining: row.remainingAfter,
    lateIncomeBrl: Money.of(row.lateIncomeBrl).toString(), refundedBrl: Money.of(row.refundedBrl).toString(),
  };
}

/** A payment as the audit row records it: what was applied and where it left the title. */
function auditedPayment(result: AppliedPayerPayment): Record<string, unknown> {
  return { payment_id: result.paymentId, external_id: result.externalId, paid_amount_brl: result.paidAmountBrl, title_status: result.titleStatus, remaining: result.remaining };
}

async function lockTitle(titles: TrackedTitlesRepository, titleId: string): Promise<TitleRecord> {
  const title = await titles.lock(titleId);
  if (!title) throw ApplicationFailure.nonRetryable(`title ${titleId} not found`, 'title_not_found');
  return title;
}

/** Title tracking (workflows/operation/phases/titles.ts): each write is guarded by the title's state under its row lock, or keyed by external_id. */
export function createTitleActivities({ db, config }: TitleActivityDeps) {
  const trackingOf = (title: TitleRecord): TrackedTitle => {
    const graceDays = config.titles.graceDaysOverride ?? title.graceDays ?? 0;
    return { titleId: title.id, ...balanceOf(title), overdueAt: overdueAt(title.dueDate, graceDays), payableId: null };
  };
  return {
    /**
     * Every title of an operation, read once at PAID: from then on only the operation's workflow
     * changes them (payments and the overdue move go through it).
     */
    async titleTrackingOfOperation({ operationId }: { operationId: string }): Promise<TrackedTitle[]> {
      return (await new TrackedTitlesRepository(db).ofOperation(operationId)).map(trackingOf);
    },

    /** Applies once per external_id; a retry after the commit finds the payment and answers with it. */
    async applyPayerPayment({ titleId, payment, appliedAt, at, audit }: {
      titleId: string; payment: PayerPaymentInput; appliedAt: string; at?: string; audit?: AuditedRequest;
    }): Promise<{ result: AppliedPayerPayment; title: TitleBalance }> {
      const now = stampOf({ at });
      return db.transaction(async (trx) => {
        const titles = new TrackedTitlesRepository(trx);
        const title = await lockTitle(titles, titleId);
        const payments = new TitlePaymentsRepository(trx, title.originatorId);
        const earlier = await payments.byExternalId(titleId, payment.externalId);
        if (earlier) return { result: appliedOf(earlier), title: balanceOf(title) };
        const refusal = payerPaymentRefusal(balanceOf(title), payment.paidAmountBrl);
        if (refusal) throw ApplicationFailure.nonRetryable(refusal.code, refusal.code, refusal.detail);
        const row = await payments.apply(title, {
          externalId: payment.externalId, amount: Money.of(payment.paidAmountBrl), paidAt: new Date(payment.paidAt ?? appliedAt),
          channel: payment.channel, recordedBy: payment.recordedBy, collected: payment.collected,
        }, now);
        await new TitleBooks(trx, title.originatorId).paid(collected(title), row);
        const after = await lockTitle(titles, titleId);
        if (after.status === 'PAID') {
          await recordTitleEvent(trx, title, 'title.paid', { paid_amount_brl: after.paidAmount, paid_at: row.paidAt.toISOString() }, 0, now);
        } else {
          // Each partial payment is its own occurrence, named by the payment.
          await recordTitleEvent(trx, title, 'title.partially_paid', {
            payment_id: row.id, payment_amount_brl: row.amount, paid_amount_brl: after.paidAmount, outstanding_balance: after.outstandingBalance,
            paid_at: row.paidAt.toISOString(),
          }, row.id, now);
        }
        const result = appliedOf(row);
        if (audit) await new AuditEventsRepository(trx).appendFor(audit, { target: { type: 'title', id: titleId }, after: auditedPayment(result) });
        return { result, title: balanceOf(after) };
      });
    },

    /** An unpaid balance at the deadline: the title is locked OVERDUE and the assignor owes its repurchase. */
    async markTitleOverdue({ titleId, at }: { titleId: string; at?: string }): Promise<TitleBalance & { payableId: string | null }> {
      const now = stampOf({ at });
      return db.transaction(async (trx) => {
        const titles = new TrackedTitlesRepository(trx);
        const title = await lockTitle(titles, titleId);
        const payables = new PayablesRepository(trx, title.originatorId);
        if (title.status === 'WAITING_PAYMENT' || title.status === 'PARTIALLY_PAID') {
          await titles.markOverdue(titleId, now);
          afterCommit(trx, () => titlesOverdue.inc());
          const payable = await payables.open({
            assignorId: title.assignorId, origin: 'TITLE_OVERDUE', originTitleId: titleId, reason: `Repurchase of overdue title ${title.externalId}`,
            amount: Money.of(title.outstandingBalance), dueDate: businessDate(now), at: now,
          });
          await new TitleBooks(trx, title.originatorId).overdue(collected(title), payable.id, Money.of(title.outstandingBalance), now);
          await recordTitleEvent(trx, title, 'title.overdue', {
            outstanding_balance: title.outstandingBalance, paid_amount_brl: title.paidAmount, due_date: title.dueDate, payable_id: payable.id,
          }, 0, now);
        }
        const after = await lockTitle(titles, titleId);
        return { ...balanceOf(after), payableId: (await payables.repurchaseOf(titleId))?.id ?? null };
      });
    },
  };
}
