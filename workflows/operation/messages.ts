import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuditedRequest } from '../../domain/audit-chain';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import type { PayerPaymentInput, PayerPaymentResult, TrackedTitle } from '../../domain/lifecycle-messages';
import type { OperationClockState } from './clock';

/** What one payer payment applied, kept so a repeat of its external_id answers the same. */
export interface RecordedPayment {
  titleId: string;
  input: PayerPaymentInput;
  result: Omit<PayerPaymentResult, 'idempotentReplay'>;
}

export interface OperationWorkflowInput {
  operationId: string;
  originatorId: string;
  displayNumber: string;
  initialStatus: LifecycleStatus;
  embeddedSignature: boolean;
  /** Four-eyes: 2 when the policy asks for two approvers; absent (histories before it) = 1. */
  approvalsRequired?: number;
  /** The sandbox test clock the operation lives on; absent, it lives in real time. */
  testClock?: OperationClockState;
  /** Set when a long wait continued as a new run: what the run knew carries over. */
  resumed?: {
    contractAttempts: number;
    disbursementAttempts?: number;
    titles?: TrackedTitle[];
    payments?: RecordedPayment[];
    /** Closed titles whose PIX charge was still to be removed. */
    chargesToClose?: string[];
  };
}

export interface OperationState {
  operationId: string;
  displayNumber: string;
  status: LifecycleStatus;
  /** What the workflow waits for now, in words an operator can act on (WAITING_FOR). */
  waitingFor: string;
  contractAttempts: number;
  disbursementAttempts: number;
  lastError: string | null;
  /** From PAID: every title with its status and balance. */
  titles: TrackedTitle[];
  approvalsRequired: number;
  /** The approvals given so far when two are required. */
  approvals: Approval[];
}

/** The workflow's signature, declared beside its messages so its run continues as new without importing it. */
export type OperationWorkflow = (input: OperationWorkflowInput) => Promise<OperationState>;

export interface Approver { userId: string; email: string }
export interface Approval extends Approver { approvedAt: string }

/**
 * A staff decision carries its request's who, from where and request id (`audit`), so the activity
 * that applies it writes the audit row in its own transaction; absent in histories recorded before
 * it and on an integrator's request, which writes no row.
 */
interface Audited { audit?: AuditedRequest }
/**
 * `approver` names the person for the four-eyes rule; `notIndependentOf`, the staff that person may
 * not pair with (domain/four-eyes.ts), as read when the request came. Both absent in
 * histories recorded before them.
 */
export interface ApproveInput extends Audited { decidedBy: string; note?: string | null; approver?: Approver; notIndependentOf?: string[] }
export interface DenyInput extends Audited { decidedBy: string; reason: string }
export interface CancelInput extends Audited { requestedBy: string; reason?: string | null }
export interface DispatchInput extends Audited { embedded?: boolean | null }
export interface RetryInput extends Audited { requestedBy: string }
export interface TitlePaymentInput extends Audited { titleId: string; payment: PayerPaymentInput }

export const stateQuery = defineQuery<OperationState>('state');
/** What the run is writing beside its status (RunActivity), `idle` when nothing: for a person or a test looking at a stuck run. */
export const runActivityQuery = defineQuery<string>('runActivity');
export const approveUpdate = defineUpdate<OperationState, [ApproveInput]>('approve');
export const denyUpdate = defineUpdate<OperationState, [DenyInput]>('deny');
export const cancelUpdate = defineUpdate<OperationState, [CancelInput]>('cancel');
/** Answers the state only: the api reads the dispatched document from the provider (sign_url stays out of history). */
export const sendForSignatureUpdate = defineUpdate<OperationState, [DispatchInput]>('sendForSignature');
export const retryDisbursementUpdate = defineUpdate<OperationState, [RetryInput]>('retryDisbursement');
/** A payer paid (part of) a title; the validator refuses what is not payable. */
export const payerPaymentUpdate = defineUpdate<PayerPaymentResult, [TitlePaymentInput]>('payerPayment');
/** The e-sign provider called back: some signer signed. */
export const signerSignedSignal = defineSignal('signerSigned');
/** The PIX provider called back: the payment settled or was refused. */
export const disbursementSettledSignal = defineSignal('disbursementSettled');
