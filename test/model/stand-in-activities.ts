import { ApplicationFailure } from '@temporalio/activity';
import type { createContractActivities } from '../../activities/contract';
import type { createDisbursementActivities } from '../../activities/disbursement';
import type { createOperationActivities } from '../../activities/operations';
import type { createTitleActivities } from '../../activities/titles';
import type { createTestClockActivities } from '../../activities/test-clocks';
import type { createRegistrationActivities } from '../../activities/registration';
import type { createCollectionActivities } from '../../activities/collection/charges';
import type { createNfeCheckActivities } from '../../activities/nfe-check';
import { Money } from '../../domain/money';
import { payerPaymentRefusal } from '../../domain/title-rules';
import type { ProviderGate } from './provider-gate';
import { paymentIdOf, runTimeOf, type OperationWorld } from './world';

type Activities = ReturnType<typeof createOperationActivities> & ReturnType<typeof createContractActivities>
  & ReturnType<typeof createDisbursementActivities> & ReturnType<typeof createTitleActivities> & ReturnType<typeof createTestClockActivities>
  & ReturnType<typeof createCollectionActivities> & ReturnType<typeof createNfeCheckActivities>
  & Pick<ReturnType<typeof createRegistrationActivities>, 'registerOperationActs' | 'cancelOperationActs' | 'informRegistrarOfPayment' | 'cancelTitleAct'>;

export interface StandInDeps {
  worlds: ReadonlyMap<string, OperationWorld>;
  gate: ProviderGate;
  /** The test server's clock (time skipped), which the workflow's own `Date.now()` follows. */
  now: () => Promise<number>;
}

/**
 * On a test clock an overdue move carries the clock's moment: its deadline when an advance
 * passed it, the clock's time when it was already past as tracking began; never a moment the
 * clock has not reached.
 */
function overdueOnClock(titleId: string, title: OperationWorld['titles'][number], clockTime: string, at: string | undefined): string[] {
  const deadline = Date.parse(title.overdueAt!);
  if (at === undefined) return [`${titleId} marked overdue in real time on a test clock`];
  if (Date.parse(at) < deadline || Date.parse(at) > Date.parse(clockTime)) return [`${titleId} marked overdue at ${at}, outside its deadline ${title.overdueAt} .. the clock's ${clockTime}`];
  if (deadline > Date.parse(title.trackedAt!) && at !== title.overdueAt) return [`${titleId} marked overdue at ${at} on a test clock, not at its deadline ${title.overdueAt}`];
  return [];
}

/** A model run's clock is named after its operation. */
export const clockOfOperation = (operationId: string) => `clock-${operationId}`;
const operationOfClock = (clockId: string) => clockId.replace(/^clock-/, '');

/**
 * Activities that stand in for Postgres and the providers (issue #23 allows them here): the same
 * signatures as the real factories, idempotent like them, writing one OperationWorld each. The
 * provider calls pass through the gate, so a model run decides when they answer.
 */
export function createStandInActivities({ worlds, gate, now }: StandInDeps): Activities {
  const world = (operationId: string): OperationWorld => {
    const found = worlds.get(operationId);
    if (!found) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
    return found;
  };
  const titleWorld = (titleId: string) => {
    const w = world(titleId.replace(/-t\d+$/, ''));
    return { w, title: w.title(titleId) };
  };
  /** A PIX the PSP settled or refused: its payout posted or voided; settled, the titles' discount starts to be earned from then. */
  const resolved = async (w: OperationWorld, payment: OperationWorld['pixPayments'][number]) => {
    if (payment.status === 'PENDING') return;
    w.books.payoutResolved(w.payoutAttempt(payment.attempt), payment.status, new Date());
    if (payment.status === 'SETTLED') w.paidOutAt ??= await runTimeOf(w, now);
  };
  const balance = (title: OperationWorld['titles'][number]) => ({
    status: title.status, outstandingBalance: title.outstanding.toString(), paidAmount: title.paid.toString(),
  });

  return {
    async recordOperationCreated() {},

    async transitionOperation({ operationId, to, decidedBy }) {
      const w = world(operationId);
      if (w.move(to, decidedBy ?? null) && to === 'DISBURSING') w.books.acquired(w.titles.map((t) => w.booked(t)), new Date());
    },

    async recordApproval({ operationId, userId }) {
      world(operationId).recordApproval(userId);
    },

    async releaseOperation({ operationId, to, actor, cancellationReason }) {
      const w = world(operationId);
      if (w.move(to, actor)) {
        w.books.released(new Date());
        if (to === 'CANCELLED') w.cancellationReason = cancellationReason ?? 'requested';
      }
    },

    dispatchContract: ({ operationId, attempt }) => gate.call(operationId, () => {
      const w = world(operationId);
      if (w.document?.attempt === attempt) return { contractId: `${operationId}-c${attempt}` };
      if (w.dispatchMode === 'refuse') throw ApplicationFailure.nonRetryable('the provider refused the document', 'esign_create_failed');
      w.document = { attempt, signers: w.signers, signed: 0, lost: false };
      return { contractId: `${operationId}-c${attempt}` };
    }),

    checkSignatures: ({ operationId }) => gate.call(operationId, () => {
      const { document } = world(operationId);
      if (!document) return { allSigned: false };
      if (document.lost) throw ApplicationFailure.nonRetryable('document unknown to the provider', 'esign_document_not_found');
      return { allSigned: document.signers > 0 && document.signed === document.signers };
    }),

    voidContract: ({ operationId }) => gate.call(operationId, () => {
      world(operationId).document = null;
    }),

    // SEFAZ is a provider too: a stall holds the check, which then answers from SEFAZ's state as it is when released.
    checkNfesBeforePayout: ({ operationId }) => gate.call(operationId, async () => {
      const w = world(operationId);
      try {
        return w.sefaz.check(new Date(await now()).toISOString());
      } finally {
        const { verdict, expected } = w.sefaz.lastCheck()!;
        if (verdict !== expected) w.violations.push(`the NF-e check found ${verdict} where SEFAZ's state says ${expected}`);
      }
    }),

    // The escriturador is a provider too, reached over HTTP: an operation with no registrable title asks it nothing.
    registerOperationActs: ({ operationId }) => gate.call(operationId, async () => (await world(operationId).registrar?.register()) ?? { refusal: null }),
    cancelOperationActs: ({ operationId }) => gate.call(operationId, async () => { await world(operationId).registrar?.cancelAll(); }),
    informRegistrarOfPayment: (news) => {
      const { w } = titleWorld(news.titleId);
      return gate.call(w.operationId, async () => { await w.registrar?.inform(news, w.paymentChannels.get(news.paymentId) === 'REGISTRAR'); });
    },
    cancelTitleAct: ({ titleId }) => {
      const { w } = titleWorld(titleId);
      return gate.call(w.operationId, async () => { await w.registrar?.cancelTitle(titleId); });
    },

    startDisbursement: ({ operationId, attempt }) => gate.call(operationId, async () => {
      const w = world(operationId);
      const key = `operation-${operationId}-pix-${attempt}`;
      let payment = w.pixPayments.find((p) => p.key === key);
      if (!payment) {
        if (w.settledPayments().length > 0) w.violations.push(`PIX attempt ${attempt} ordered after an earlier one settled: paid twice`);
        const unchecked = w.sefaz.pixOrdered();
        if (unchecked) w.violations.push(`PIX attempt ${attempt} ordered while ${unchecked}`);
        for (const unregistered of w.registrar?.pixOrdered() ?? []) w.violations.push(`PIX attempt ${attempt} ordered while ${unregistered}`);
        const status = ({ settle: 'SETTLED', pending: 'PENDING', refuse: 'REJECTED' } as const)[w.pixMode];
        payment = { key, attempt, status };
        w.pixPayments.push(payment);
        w.books.payoutOrdered(w.payoutAttempt(attempt), new Date());
      }
      await resolved(w, payment);
      return { status: payment.status, reason: payment.status === 'REJECTED' ? 'pix_rejected' : null };
    }),

    getDisbursement: ({ operationId, attempt }) => gate.call(operationId, async () => {
      const w = world(operationId);
      const payment = w.pixPayments.find((p) => p.attempt === attempt)!;
      await resolved(w, payment);
      return { status: payment.status, reason: payment.status === 'REJECTED' ? 'pix_rejected' : null };
    }),

    async reconcileAndMarkPaid({ operationId, workflowId }) {
      world(operationId).move('PAID', workflowId);
      return { status: 'SETTLED', reason: null };
    },

    async titleTrackingOfOperation({ operationId }) {
      const w = world(operationId);
      // On a test clock deadlines count from the clock's time, as due dates would.
      const at = await runTimeOf(w, now);
      return w.titles.map((title) => {
        title.overdueAt = new Date(at + title.overdueAfterMs).toISOString();
        title.trackedAt = w.clock?.frozenTime ?? null;
        return { titleId: title.titleId, ...balance(title), overdueAt: title.overdueAt, payableId: null };
      });
    },

    async applyPayerPayment({ titleId, payment }) {
      const { w, title } = titleWorld(titleId);
      const amount = Money.of(payment.paidAmountBrl);
      const result = (remaining: Money) => ({
        paymentId: paymentIdOf(titleId, payment.externalId), titleId, externalId: payment.externalId, paidAmountBrl: amount.toString(),
        paidAt: payment.paidAt ?? new Date(0).toISOString(), titleStatus: remaining.isZero() ? 'PAID' as const : 'PARTIALLY_PAID' as const, remaining: remaining.toString(),
      });
      if (title.applied.has(payment.externalId)) return { result: result(title.outstanding), title: balance(title) };
      const refusal = payerPaymentRefusal(balance(title), payment.paidAmountBrl);
      if (refusal) {
        w.violations.push(`the workflow applied a payment its rules refuse (${refusal.code}) to ${titleId}`);
        throw ApplicationFailure.nonRetryable(refusal.code, refusal.code, refusal.detail);
      }
      title.applied.set(payment.externalId, amount);
      w.paymentChannels.set(paymentIdOf(titleId, payment.externalId), payment.channel);
      title.outstanding = title.outstanding.minus(amount);
      title.paid = title.paid.plus(amount);
      title.status = title.outstanding.isZero() ? 'PAID' : 'PARTIALLY_PAID';
      w.books.paid(w.booked(title), `${titleId}-${payment.externalId}`, amount, title.status === 'PAID', new Date());
      return { result: result(title.outstanding), title: balance(title) };
    },

    // The model's originators collect no PIX (issue #31): their titles are paid by payer payments only.
    async issuePixCharges() {
      return 0;
    },
    async closePixCharge() {},

    async recordClockAdvancing({ clockId, frozenTime }) {
      world(operationOfClock(clockId)).clock = { frozenTime, status: 'advancing' };
    },

    async recordClockReady({ clockId, frozenTime }) {
      const w = world(operationOfClock(clockId));
      if (w.clock?.frozenTime === frozenTime) w.clock.status = 'ready';
    },

    async expireClock({ clockId }) {
      world(operationOfClock(clockId)).violations.push(`clock ${clockId} expired during a model run`);
    },

    async markTitleOverdue({ titleId, at }) {
      const { w, title } = titleWorld(titleId);
      if (w.clock) w.violations.push(...overdueOnClock(titleId, title, w.clock.frozenTime, at));
      if (title.status === 'WAITING_PAYMENT' || title.status === 'PARTIALLY_PAID') {
        title.status = 'OVERDUE';
        w.books.overdue(w.booked(title), `${titleId}-payable`, title.outstanding, new Date());
      }
      return { ...balance(title), payableId: title.status === 'OVERDUE' ? `${titleId}-payable` : null };
    },
  };
}
