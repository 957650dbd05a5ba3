import type { TitleStatus } from './title-rules';

/**
 * Messages that cross between the operation workflow and its activities (and the api, which
 * sends the updates): one module both sides import, so neither imports the other.
 */

/** A title as the operation workflow tracks it after PAID. */
export interface TrackedTitle {
  titleId: string;
  status: TitleStatus;
  outstandingBalance: string;
  paidAmount: string;
  /** When an unpaid balance turns OVERDUE: the day after due date + grace days begins (America/Sao_Paulo). */
  overdueAt: string;
  /** The assignor payable opened when the title turned OVERDUE. */
  payableId: string | null;
}

/** The title's balance as Postgres holds it after an activity. */
export type TitleBalance = Pick<TrackedTitle, 'status' | 'outstandingBalance' | 'paidAmount'>;

/** How a payer's payment reached us; `REGISTRAR`: the escriturador reported the boleto dinâmico paid to the holder. */
export type PaymentChannel = 'BACKOFFICE' | 'SANDBOX' | 'PIX' | 'REGISTRAR';

export interface PayerPaymentInput {
  externalId: string;
  paidAmountBrl: string;
  /** As the caller sent it; null means "when applied". */
  paidAt: string | null;
  channel: PaymentChannel;
  recordedBy: string;
  /** A PIX collected on the title's charge: what the payer sent beside what reduces the balance. */
  collected?: { receivedBrl: string; lateIncomeBrl: string; refundedBrl: string };
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
  /** Fine and interest, and what went back to the payer; absent from results recorded before it. */
  lateIncomeBrl?: string;
  refundedBrl?: string;
}

export type PayerPaymentResult = AppliedPayerPayment & { idempotentReplay: boolean };

/** How a disbursement attempt stands; `reason` names why it is not SETTLED. */
export interface DisbursementOutcome {
  status: 'PENDING' | 'SETTLED' | 'REJECTED';
  reason: string | null;
}
