import {
  ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, defineQuery, defineSignal, defineUpdate,
  patched, setHandler, upsertSearchAttributes, workflowInfo,
} from '@temporalio/workflow';
import type { LifecycleStatus } from '../domain/operation-lifecycle';
import { APPROVED_STATES, CANCELLABLE_STATES, SIGNABLE_STATES } from '../domain/operation-lifecycle';
import {
  contractActivities, disbursementActivities, localOperationActivities, localReconciliation, operationActivities,
} from './operation-activities';
import { LIFECYCLE_STATUS } from './search-attributes';
import { trackTitlesUntilClosed } from './title-tracking';

export interface OperationWorkflowInput {
  operationId: string;
  originatorId: string;
  displayNumber: string;
  initialStatus: LifecycleStatus;
  embeddedSignature: boolean;
  /** Set when a long wait for signatures continued as a new run: the counters carry over. */
  resumed?: { contractAttempts: number };
}

export interface OperationState {
  operationId: string;
  displayNumber: string;
  status: LifecycleStatus;
  /** What the workflow waits for now, in words an operator can act on. */
  waitingFor: string;
  contractAttempts: number;
  disbursementAttempts: number;
  lastError: string | null;
}

export interface ContractDispatchView {
  operation_id: string;
  contract_id: string;
  doc_token: string;
  lifecycle_status: 'CONTRACT_SENT';
  is_first_contract: boolean;
  titles_count: number;
  signers_count: number;
  signers_notified: number | null;
  embedded: boolean;
  signers: { name: string; status: string }[];
}

export const stateQuery = defineQuery<OperationState>('state');
export interface ApproveInput { decidedBy: string; note?: string | null }
export interface DenyInput { decidedBy: string; reason: string }
export interface CancelInput { requestedBy: string; reason?: string | null }
export interface DispatchInput { embedded?: boolean | null }
export interface RetryInput { requestedBy: string }

export const approveUpdate = defineUpdate<OperationState, [ApproveInput]>('approve');
export const denyUpdate = defineUpdate<OperationState, [DenyInput]>('deny');
export const cancelUpdate = defineUpdate<OperationState, [CancelInput]>('cancel');
export const sendForSignatureUpdate = defineUpdate<ContractDispatchView, [DispatchInput]>('sendForSignature');
export const retryDisbursementUpdate = defineUpdate<OperationState, [RetryInput]>('retryDisbursement');
/** The e-sign provider called back: some signer signed. */
export const signerSignedSignal = defineSignal('signerSigned');
/** The PIX provider called back: the payment settled or was refused. */
export const disbursementSettledSignal = defineSignal('disbursementSettled');

const ALREADY_DISPATCHED: readonly LifecycleStatus[] = ['CONTRACT_SENT', 'SIGNED', 'DISBURSING', 'DISBURSEMENT_FAILED', 'PAID', 'SETTLED'];
const SIGNATURE_POLL_FAST_MS = [5_000, 10_000, 20_000, 30_000];
const SIGNATURE_POLL_SLOW_MS = 300_000;
const DISBURSEMENT_POLL_MS = 15_000;
/**
 * Runs started with this patch write the read model through local activities, hand each title
 * workflow its starting state, do not re-read a document they have just dispatched and do not
 * upsert a search attribute to the value it already has (docs/decisions.md). Histories written
 * before it replay the remote activities they recorded.
 */
export const LOCAL_READ_MODEL_PATCH = 'local-read-model-writes';

function refuse(code: string, message: string): never {
  throw ApplicationFailure.nonRetryable(message, code);
}

/**
 * One operation from creation to PAID (DESIGN.md §5). The workflow decides; activities change
 * Postgres (idempotently, with the event row) and talk to the providers.
 */
export async function operationWorkflow(input: OperationWorkflowInput): Promise<OperationState> {
  // First, before any handler can run: the whole run takes one side of the patch.
  const local = patched(LOCAL_READ_MODEL_PATCH);
  const ops = local ? localOperationActivities() : operationActivities();
  const contract = contractActivities();
  const pix = disbursementActivities();
  const reconcileAndMarkPaid = local ? localReconciliation() : pix.reconcileAndMarkPaid;
  const state: OperationState = {
    operationId: input.operationId,
    displayNumber: input.displayNumber,
    status: input.initialStatus,
    waitingFor: 'recording creation',
    contractAttempts: input.resumed?.contractAttempts ?? 0,
    disbursementAttempts: 0,
    lastError: null,
  };
  let busy = false;
  let cancelRequested: { requestedBy: string; reason: string | null } | null = null;
  let signaturesMayHaveChanged = false;
  let settlementReported = false;
  let retryRequested = false;
  let dispatching = false;
  /** A dispatch of this run has just read the document back, unsigned: the first signature check can wait. */
  let justDispatched = false;

  const setStatus = (status: LifecycleStatus, waitingFor: string) => {
    state.status = status;
    state.waitingFor = waitingFor;
    // Already so (set at the start, or carried over by continue-as-new): no upsert, no visibility write.
    if (local && workflowInfo().typedSearchAttributes.get(LIFECYCLE_STATUS) === status) return;
    upsertSearchAttributes([{ key: LIFECYCLE_STATUS, value: status }]);
  };
  // The workflow's own state moves first, so an update validated while the read model is being
  // written already sees the new state (a client reacting to the read model is never refused).
  const transition = async (from: LifecycleStatus[], to: LifecycleStatus, waitingFor: string, extra: Record<string, unknown> = {}) => {
    setStatus(to, waitingFor);
    await ops.transitionOperation({ operationId: input.operationId, workflowId: workflowInfo().workflowId, from, to, ...extra });
  };

  setHandler(stateQuery, () => state);

  setHandler(approveUpdate, async ({ decidedBy, note }) => {
    busy = true;
    try {
      await transition(['WAITING_APPROVAL'], 'PRE_APPROVED', 'contract dispatch', { decidedBy, note: note ?? null });
      return state;
    } finally {
      busy = false;
    }
  }, {
    validator: (_input: ApproveInput) => {
      if (busy || state.status !== 'WAITING_APPROVAL') refuse('operation_cannot_be_approved', `Operation is ${state.status}`);
    },
  });

  setHandler(denyUpdate, async ({ decidedBy, reason }) => {
    busy = true;
    try {
      await ops.releaseOperation({ operationId: input.operationId, workflowId: workflowInfo().workflowId, from: ['WAITING_APPROVAL'], to: 'DENIED', actor: decidedBy, reason });
      setStatus('DENIED', 'nothing (terminal)');
      return state;
    } finally {
      busy = false;
    }
  }, {
    validator: (_input: DenyInput) => {
      if (busy || state.status !== 'WAITING_APPROVAL') refuse('operation_cannot_be_denied', `Operation is ${state.status}`);
    },
  });

  setHandler(cancelUpdate, async ({ requestedBy, reason }) => {
    cancelRequested = { requestedBy, reason: reason ?? null };
    await condition(() => state.status === 'CANCELLED');
    return state;
  }, {
    validator: (_input: CancelInput) => {
      if (busy || cancelRequested || !CANCELLABLE_STATES.includes(state.status)) {
        refuse('operation_cannot_be_cancelled', `Operation is ${state.status}`);
      }
    },
  });

  const dispatch = async (embedded: boolean): Promise<ContractDispatchView> => {
    dispatching = true;
    state.contractAttempts += 1;
    const from = state.status;
    try {
      const view = await contract.dispatchContract({ operationId: input.operationId, embedded, attempt: state.contractAttempts });
      await transition([from], 'CONTRACT_SENT', 'signatures (provider callback or polling)');
      state.lastError = null;
      justDispatched = local;
      return view;
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      const code = err.cause instanceof ApplicationFailure ? err.cause.type ?? 'esign_create_failed' : 'esign_create_failed';
      state.lastError = code;
      await contract.voidContract({ operationId: input.operationId });
      await transition([from], 'CONTRACT_ERROR', 'send-for-signature (POST /v1/operations/{id}/contract/send-for-signature) or cancel', { errorCode: code });
      throw ApplicationFailure.nonRetryable(`Contract dispatch failed: ${code}`, code);
    } finally {
      dispatching = false;
    }
  };

  const refuseUnlessSignable = () => {
    if (cancelRequested) refuse('operation_not_in_signable_state', 'Operation is being cancelled');
    if (ALREADY_DISPATCHED.includes(state.status)) refuse('contract_already_exists', 'The contract was already dispatched');
    if (!SIGNABLE_STATES.includes(state.status)) refuse('operation_not_in_signable_state', `Operation is ${state.status}`);
  };

  // A dispatch already in flight (the automatic one) is waited for, then the state decides again.
  setHandler(sendForSignatureUpdate, async ({ embedded }) => {
    while (dispatching) await condition(() => !dispatching);
    refuseUnlessSignable();
    return dispatch(embedded ?? input.embeddedSignature);
  }, { validator: (_input: DispatchInput) => refuseUnlessSignable() });

  setHandler(retryDisbursementUpdate, async () => {
    retryRequested = true;
    await condition(() => state.status !== 'DISBURSEMENT_FAILED');
    return state;
  }, {
    validator: (_input: RetryInput) => {
      if (state.status !== 'DISBURSEMENT_FAILED' || retryRequested) refuse('operation_cannot_retry_disbursement', `Operation is ${state.status}`);
    },
  });

  setHandler(signerSignedSignal, () => { signaturesMayHaveChanged = true; });
  setHandler(disbursementSettledSignal, () => { settlementReported = true; });

  const finishCancelled = async () => {
    await contract.voidContract({ operationId: input.operationId });
    await ops.releaseOperation({
      operationId: input.operationId, workflowId: workflowInfo().workflowId, from: [...CANCELLABLE_STATES], to: 'CANCELLED',
      actor: cancelRequested!.requestedBy, reason: cancelRequested!.reason,
    });
    setStatus('CANCELLED', 'nothing (terminal)');
    await condition(allHandlersFinished);
    return state;
  };

  await ops.recordOperationCreated({ operationId: input.operationId, workflowId: workflowInfo().workflowId });
  setStatus(state.status, state.status === 'WAITING_APPROVAL' ? 'backoffice approval (approve, deny) or cancel' : 'contract dispatch');

  // Approval: the handlers move the state; the main line only waits.
  await condition(() => !busy && (state.status !== 'WAITING_APPROVAL' || cancelRequested !== null));
  if (state.status === 'DENIED') {
    await condition(allHandlersFinished);
    return state;
  }

  // Contract: automatic dispatch, then signatures; CONTRACT_ERROR waits for a manual re-dispatch.
  while (state.status !== 'SIGNED') {
    if (cancelRequested) return finishCancelled();
    if (dispatching) {
      await condition(() => !dispatching);
    } else if (APPROVED_STATES.includes(state.status)) {
      // A failed dispatch has already moved to CONTRACT_ERROR; anything else is a bug to surface.
      await dispatch(input.embeddedSignature).catch((err) => {
        if (!(err instanceof ApplicationFailure)) throw err;
      });
    } else if (state.status === 'CONTRACT_ERROR') {
      await condition(() => !dispatching && (state.status !== 'CONTRACT_ERROR' || cancelRequested !== null));
    } else if (state.status === 'CONTRACT_SENT') {
      let polls = 0;
      // Right after a dispatch nobody has signed yet (the dispatch read the signers back): the
      // first check waits for the provider's callback or the first poll, like every later one.
      let checkNow = !justDispatched;
      justDispatched = false;
      while (state.status === 'CONTRACT_SENT' && !cancelRequested) {
        if (checkNow) {
          signaturesMayHaveChanged = false;
          const { allSigned } = await contract.checkSignatures({ operationId: input.operationId });
          if (allSigned) {
            await transition(['CONTRACT_SENT'], 'SIGNED', 'PIX disbursement');
            break;
          }
        }
        checkNow = true;
        const wait = polls < SIGNATURE_POLL_FAST_MS.length ? SIGNATURE_POLL_FAST_MS[polls] : SIGNATURE_POLL_SLOW_MS;
        polls += 1;
        await condition(() => signaturesMayHaveChanged || cancelRequested !== null, wait);
        if (workflowInfo().continueAsNewSuggested && !cancelRequested) {
          // Signing has no deadline, so the polling history would grow without bound: start afresh
          // (unless a cancel arrives meanwhile: this run must finish it).
          await condition(() => allHandlersFinished() || cancelRequested !== null);
          if (!cancelRequested) {
            return continueAsNew<typeof operationWorkflow>({ ...input, initialStatus: 'CONTRACT_SENT', resumed: { contractAttempts: state.contractAttempts } });
          }
        }
      }
    }
  }

  // Disbursement: one PIX per attempt, its idempotency key derived from the operation and the attempt.
  for (;;) {
    state.disbursementAttempts += 1;
    settlementReported = false;
    await transition([state.status], 'DISBURSING', 'PIX settlement (provider callback or polling)');
    let outcome = await pix.startDisbursement({ operationId: input.operationId, attempt: state.disbursementAttempts });
    while (outcome.status === 'PENDING') {
      await condition(() => settlementReported, DISBURSEMENT_POLL_MS);
      settlementReported = false;
      outcome = await pix.getDisbursement({ operationId: input.operationId, attempt: state.disbursementAttempts });
    }
    if (outcome.status === 'SETTLED') {
      outcome = await reconcileAndMarkPaid({ operationId: input.operationId, workflowId: workflowInfo().workflowId, attempt: state.disbursementAttempts });
      if (outcome.status === 'SETTLED') {
        setStatus('PAID', 'payer payments on the titles');
        break;
      }
    }
    state.lastError = outcome.reason ?? 'pix_rejected';
    retryRequested = false;
    await transition(['DISBURSING'], 'DISBURSEMENT_FAILED', 'a human: retry the disbursement or cancel', { errorCode: state.lastError });
    await condition(() => retryRequested || cancelRequested !== null);
    if (cancelRequested) return finishCancelled();
  }

  await trackTitlesUntilClosed(input.operationId, local);
  await transition(['PAID'], 'SETTLED', 'nothing (terminal)');
  await condition(allHandlersFinished);
  return state;
}
