import { allHandlersFinished, ApplicationFailure, condition, defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import { titleActivities } from './title-activities';
import { CLOSED_TITLE_STATUSES, payerPaymentRefusal, TitleStatus } from '../domain/title-rules';

export interface TitleWorkflowInput {
  titleId: string;
  /**
   * The title as the operation read it at PAID (all its titles in one read): the workflow starts
   * from it instead of reading the title itself. Absent: the workflow reads it (openTitleTracking).
   */
  tracking?: Omit<TitleState, 'payableId' | 'waitingFor'>;
}

export interface TitleState {
  titleId: string;
  status: TitleStatus;
  outstandingBalance: string;
  paidAmount: string;
  /** When an unpaid balance turns OVERDUE: the day after due date + grace days begins (America/Sao_Paulo). */
  overdueAt: string;
  payableId: string | null;
  waitingFor: string;
}

export interface PayerPaymentInput {
  externalId: string;
  paidAmountBrl: string;
  /** As the caller sent it; null means "when applied". */
  paidAt: string | null;
  channel: 'BACKOFFICE' | 'SANDBOX';
  recordedBy: string;
}

export interface AppliedPayerPayment {
  paymentId: string;
  titleId: string;
  externalId: string;
  paidAmountBrl: string;
  paidAt: string;
  /** The title right after this payment. */
  titleStatus: TitleStatus;
  remaining: string;
}

export type PayerPaymentResult = AppliedPayerPayment & { idempotentReplay: boolean };

/** The title's balance as Postgres holds it after an activity. */
export type TitleBalance = Pick<TitleState, 'status' | 'outstandingBalance' | 'paidAmount'>;

export const titleWorkflowId = (titleId: string) => `title-${titleId}`;
export const titleStateQuery = defineQuery<TitleState>('state');
export const payerPaymentUpdate = defineUpdate<PayerPaymentResult, [PayerPaymentInput]>('payerPayment');

function refuse(refusal: { code: string; detail: unknown }): never {
  const message = typeof refusal.detail === 'string' ? refusal.detail : (refusal.detail as { message: string }).message;
  throw ApplicationFailure.nonRetryable(message, refusal.code, refusal.detail);
}

/**
 * One title from its operation's PAID until it closes (DESIGN.md §5): payer payments arrive as
 * updates and move it WAITING_PAYMENT → PARTIALLY_PAID → PAID; at `overdueAt` an unpaid balance
 * makes it OVERDUE, which opens an assignor payable for that balance and locks it.
 */
export async function titleWorkflow({ titleId, tracking }: TitleWorkflowInput): Promise<TitleState> {
  const titles = titleActivities();
  const state: TitleState = {
    titleId, status: 'WAITING_PAYMENT', outstandingBalance: '0.00', paidAmount: '0.00', overdueAt: '', payableId: null, waitingFor: 'reading the title',
  };
  // external_id → what it applied: a repeated payment answers the same without a second credit.
  const applied = new Map<string, { input: PayerPaymentInput; result: AppliedPayerPayment }>();
  // Handlers are set before the first await, or an early update would find none; until the title
  // is read they wait (busy) and the validator lets them in, for the handler checks again.
  let loaded = false;
  let busy = true;

  /** Payments and the overdue move change the same balance: one at a time, each on the state the previous left. */
  const exclusively = async <T>(step: () => Promise<T>): Promise<T> => {
    await condition(() => !busy);
    busy = true;
    try {
      return await step();
    } finally {
      busy = false;
    }
  };

  const earlier = (payment: PayerPaymentInput): PayerPaymentResult | null => {
    const seen = applied.get(payment.externalId);
    if (!seen) return null;
    const fields = (['paidAmountBrl', 'paidAt'] as const).filter((f) => seen.input[f] !== payment[f]);
    if (fields.length > 0) {
      refuse({
        code: 'external_id_reused_with_different_body',
        detail: {
          code: 'external_id_reused_with_different_body', message: `external_id ${payment.externalId} was already used with a different body`,
          fields: fields.map((f) => (f === 'paidAt' ? 'paid_at' : 'paid_amount_brl')),
        },
      });
    }
    return { ...seen.result, idempotentReplay: true };
  };

  const check = (payment: PayerPaymentInput) => {
    const refusal = payerPaymentRefusal(state, payment.paidAmountBrl);
    if (refusal) refuse(refusal);
  };

  setHandler(titleStateQuery, () => state);

  setHandler(payerPaymentUpdate, (payment) => exclusively(async () => {
    const replay = earlier(payment);
    if (replay) return replay;
    check(payment);
    const { result, title } = await titles.applyPayerPayment({ titleId, payment, appliedAt: new Date().toISOString() });
    applied.set(payment.externalId, { input: payment, result });
    Object.assign(state, title);
    return { ...result, idempotentReplay: false };
  }), {
    validator: (payment: PayerPaymentInput) => {
      if (loaded && !earlier(payment)) check(payment);
    },
  });

  Object.assign(state, tracking ?? await titles.openTitleTracking({ titleId }));
  state.waitingFor = `payer payments; OVERDUE at ${state.overdueAt} if a balance is left`;
  loaded = true;
  busy = false;

  while (!CLOSED_TITLE_STATUSES.includes(state.status)) {
    const untilOverdue = Date.parse(state.overdueAt) - Date.now();
    if (untilOverdue > 0) {
      await condition(() => CLOSED_TITLE_STATUSES.includes(state.status), untilOverdue);
      continue;
    }
    await exclusively(async () => {
      if (CLOSED_TITLE_STATUSES.includes(state.status)) return;
      Object.assign(state, await titles.markTitleOverdue({ titleId }));
    });
  }
  state.waitingFor = 'nothing (closed)';
  await condition(allHandlersFinished);
  return state;
}
