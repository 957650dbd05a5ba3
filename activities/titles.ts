import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Config } from '../api/config';
import { eventId } from '../domain/events';
import { Money } from '../domain/money';
import { addDays, businessDate } from '../domain/pricing';
import { recordEvent } from '../db/repositories/events';
import { PayablesRepository } from '../db/repositories/payables';
import { TitlePaymentRow, TitlePaymentsRepository } from '../db/repositories/title-payments';
import type { AppliedPayerPayment, PayerPaymentInput, TitleBalance, TrackedTitle } from '../domain/lifecycle-messages';
import { payerPaymentRefusal, TitleStatus } from '../domain/title-rules';

export interface TitleActivityDeps {
  db: Knex;
  config: Pick<Config, 'titles'>;
}

interface TitleRow {
  id: string;
  originator_id: string;
  operation_id: string;
  assignor_id: string;
  external_id: string;
  status: TitleStatus;
  outstanding_balance: string;
  paid_amount: string;
  due_date: string;
}

/**
 * The payer has the whole due date plus the grace days: the title turns OVERDUE when the next
 * business day begins. São Paulo has kept UTC−3 all year since 2019.
 */
export function overdueAt(dueDate: string, graceDays: number): string {
  return new Date(`${addDays(dueDate, graceDays + 1)}T00:00:00-03:00`).toISOString();
}

const balanceOf = (title: TitleRow): TitleBalance => ({ status: title.status, outstandingBalance: title.outstanding_balance, paidAmount: title.paid_amount });

function appliedOf(row: TitlePaymentRow): AppliedPayerPayment {
  return {
    paymentId: row.id, titleId: row.title_id, externalId: row.external_id, paidAmountBrl: row.amount, paidAt: row.paid_at.toISOString(),
    titleStatus: Money.of(row.remaining_after).isZero() ? 'PAID' : 'PARTIALLY_PAID', remaining: row.remaining_after,
  };
}

async function lockTitle(trx: Knex, titleId: string): Promise<TitleRow> {
  const title = await trx('titles').where({ id: titleId }).forUpdate().first();
  if (!title) throw ApplicationFailure.nonRetryable(`title ${titleId} not found`, 'title_not_found');
  return title;
}


/** Titles with the grace days of their operation's policy. */
function trackedTitles(db: Knex) {
  return db('titles').join('operations', 'operations.id', 'titles.operation_id')
    .leftJoin('policies', 'policies.id', 'operations.policy_id').select('titles.*', 'policies.grace_days');
}

/** Title tracking (workflows/title-tracking.ts): each write is guarded by the title's state under its row lock, or keyed by external_id. */
export function createTitleActivities({ db, config }: TitleActivityDeps) {
  const trackingOf = (title: TitleRow & { grace_days: number | null }): TrackedTitle => {
    const graceDays = config.titles.graceDaysOverride ?? Number(title.grace_days ?? 0);
    return { titleId: title.id, ...balanceOf(title), overdueAt: overdueAt(title.due_date, graceDays), payableId: null };
  };
  return {
    /**
     * Every title of an operation, read once at PAID: from then on only the operation's workflow
     * changes them (payments and the overdue move go through it).
     */
    async titleTrackingOfOperation({ operationId }: { operationId: string }): Promise<TrackedTitle[]> {
      const titles = await trackedTitles(db).where('titles.operation_id', operationId).whereNot('titles.status', 'CANCELLED').orderBy('titles.id');
      return titles.map(trackingOf);
    },

    /** Applies once per external_id; a retry after the commit finds the payment and answers with it. */
    async applyPayerPayment({ titleId, payment, appliedAt }: { titleId: string; payment: PayerPaymentInput; appliedAt: string }): Promise<{ result: AppliedPayerPayment; title: TitleBalance }> {
      return db.transaction(async (trx) => {
        const title = await lockTitle(trx, titleId);
        const payments = new TitlePaymentsRepository(trx, title.originator_id);
        const earlier = await payments.byExternalId(titleId, payment.externalId);
        if (earlier) return { result: appliedOf(earlier), title: balanceOf(title) };
        const refusal = payerPaymentRefusal(balanceOf(title), payment.paidAmountBrl);
        if (refusal) throw ApplicationFailure.nonRetryable(refusal.code, refusal.code, refusal.detail);
        const row = await payments.apply(title, {
          externalId: payment.externalId, amount: Money.of(payment.paidAmountBrl), paidAt: new Date(payment.paidAt ?? appliedAt),
          channel: payment.channel, recordedBy: payment.recordedBy,
        });
        const after = await lockTitle(trx, titleId);
        if (after.status === 'PAID') {
          const { display_number } = await trx('operations').where({ id: title.operation_id }).first('display_number');
          await recordEvent(trx, {
            eventId: eventId(`title-${titleId}`, 'title.paid'), originatorId: title.originator_id, eventType: 'title.paid', occurredAt: new Date(),
            data: {
              title_id: titleId, operation_id: title.operation_id, display_number, originator_id: title.originator_id,
              external_id: title.external_id, paid_amount_brl: after.paid_amount, paid_at: row.paid_at.toISOString(),
            },
          });
        }
        return { result: appliedOf(row), title: balanceOf(after) };
      });
    },

    /** An unpaid balance at the deadline: the title is locked OVERDUE and the assignor owes its repurchase. */
    async markTitleOverdue({ titleId }: { titleId: string }): Promise<TitleBalance & { payableId: string | null }> {
      return db.transaction(async (trx) => {
        const title = await lockTitle(trx, titleId);
        const payables = new PayablesRepository(trx, title.originator_id);
        if (title.status === 'WAITING_PAYMENT' || title.status === 'PARTIALLY_PAID') {
          await trx('titles').where({ id: titleId }).update({ status: 'OVERDUE', updated_at: new Date() });
          await payables.open({
            assignorId: title.assignor_id, origin: 'TITLE_OVERDUE', originTitleId: titleId, reason: `Repurchase of overdue title ${title.external_id}`,
            amount: Money.of(title.outstanding_balance), dueDate: businessDate(new Date()),
          });
        }
        const after = await lockTitle(trx, titleId);
        return { ...balanceOf(after), payableId: (await payables.repurchaseOf(titleId))?.id ?? null };
      });
    },
  };
}
