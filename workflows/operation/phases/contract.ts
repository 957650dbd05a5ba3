import { allHandlersFinished, CancellationScope, condition, isCancellation, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AuditedRequest } from '../../../domain/audit-chain';
import { APPROVED_STATES, DISPATCHED_STATES, SIGNABLE_STATES } from '../../../domain/operation-lifecycle';
import { DispatchInput, sendForSignatureUpdate, signerSignedSignal } from '../messages';
import { failureCode, OperationRun, refuse } from '../operation-run';

const SIGNATURE_POLL_FAST_MS = [5_000, 10_000, 20_000, 30_000];
const SIGNATURE_POLL_SLOW_MS = 300_000;

/**
 * Contract: an automatic dispatch once approved, then signatures (provider callback or polling);
 * CONTRACT_ERROR waits for a manual re-dispatch, which creates a fresh document.
 */
export class ContractPhase {
  private dispatching = false;
  /** The dispatch in flight: a cancel stops its retries (its current attempt finishes). */
  private dispatchScope: CancellationScope | null = null;
  private signaturesMayHaveChanged = false;
  /** A dispatch of this run has just read the document back, unsigned: the first signature check can wait. */
  private justDispatched = false;

  constructor(private readonly run: OperationRun) {}

  install(): void {
    setHandler(sendForSignatureUpdate, async ({ embedded, audit }) => {
      // Only an update accepted by an older validator finds a dispatch in flight (the validator now
      // refuses it): it waits for that dispatch, then the state decides again.
      while (this.dispatching) await condition(() => !this.dispatching);
      this.refuseUnlessSignable();
      await this.dispatch(embedded ?? this.run.input.embeddedSignature, this.run.contract.redispatchContract, audit);
      if (this.run.status === 'CONTRACT_SENT') return this.run.state;
      if (this.run.cancelRequested) refuse('operation_not_in_signable_state', 'Operation is being cancelled');
      return refuse(this.run.state.lastError!, `Contract dispatch failed: ${this.run.state.lastError}`);
    }, {
      validator: (_input: DispatchInput) => {
        // The automatic dispatch may retry for minutes: its outcome is read from the signers route, not waited for here.
        if (this.dispatching) refuse('contract_already_exists', 'The contract is being dispatched');
        this.refuseUnlessSignable();
      },
    });
    setHandler(signerSignedSignal, () => { this.signaturesMayHaveChanged = true; });
  }

  /** A cancel was accepted: a dispatch retrying through a provider outage stops retrying, so the cancel need not wait for it. */
  stopDispatch(): void {
    if (this.dispatchScope && patched('cancel-stops-dispatch')) this.dispatchScope.cancel();
  }

  private refuseUnlessSignable(): void {
    if (this.run.cancelRequested) refuse('operation_not_in_signable_state', 'Operation is being cancelled');
    if (DISPATCHED_STATES.includes(this.run.status)) refuse('contract_already_exists', 'The contract was already dispatched');
    if (!SIGNABLE_STATES.includes(this.run.status)) refuse('operation_not_in_signable_state', `Operation is ${this.run.status}`);
  }

  /** One dispatch attempt: CONTRACT_SENT (with a staff re-dispatch's audit row), or CONTRACT_ERROR with the partial document voided. */
  private async dispatch(embedded: boolean, activity = this.run.contract.dispatchContract, audit?: AuditedRequest): Promise<void> {
    const { run } = this;
    this.dispatching = true;
    run.state.contractAttempts += 1;
    this.dispatchScope = new CancellationScope();
    try {
      await this.dispatchScope.run(() => activity({ operationId: run.input.operationId, embedded, attempt: run.state.contractAttempts }));
      await run.moveTo('CONTRACT_SENT', { audit });
      run.state.lastError = null;
      this.justDispatched = true;
    } catch (err) {
      // Stopped by a cancel: the cancellation voids whatever the attempts left at the provider.
      if (isCancellation(err) && run.cancelRequested) return;
      const code = failureCode(err, 'esign_create_failed');
      if (code === null) throw err;
      await this.contractError(code);
    } finally {
      this.dispatching = false;
      this.dispatchScope = null;
    }
  }

  /** The contract in force is given up (voided, ERROR with `code`): a human re-dispatches or cancels. */
  private async contractError(code: string): Promise<void> {
    const { run } = this;
    run.state.lastError = code;
    await run.contract.voidContract({ operationId: run.input.operationId, errorCode: code });
    await run.moveTo('CONTRACT_ERROR', { errorCode: code });
  }

  /** Resolves true once SIGNED, false when cancelled meanwhile (cancellation finished). */
  async untilSigned(): Promise<boolean> {
    const { run } = this;
    while (run.status !== 'SIGNED') {
      if (run.cancelRequested) {
        await condition(() => !this.dispatching);
        await run.finishCancelled();
        return false;
      }
      if (this.dispatching) {
        await condition(() => !this.dispatching);
      } else if (APPROVED_STATES.includes(run.status)) {
        await this.dispatch(run.input.embeddedSignature);
      } else if (run.status === 'CONTRACT_ERROR') {
        await condition(() => this.dispatching || run.status !== 'CONTRACT_ERROR' || run.cancelRequested !== null);
      } else if (run.status === 'CONTRACT_SENT') {
        await this.awaitSignatures();
      }
    }
    return true;
  }

  private async awaitSignatures(): Promise<void> {
    const { run } = this;
    let polls = 0;
    // Right after a dispatch nobody has signed yet (the dispatch read the signers back): the
    // first check waits for the provider's callback or the first poll, like every later one.
    let checkNow = !this.justDispatched;
    this.justDispatched = false;
    while (run.status === 'CONTRACT_SENT' && !run.cancelRequested) {
      if (checkNow) {
        this.signaturesMayHaveChanged = false;
        let allSigned: boolean;
        try {
          ({ allSigned } = await run.contract.checkSignatures({ operationId: run.input.operationId }));
        } catch (err) {
          // The provider no longer knows the document, or refuses to show it: a human re-dispatches.
          const code = failureCode(err, 'esign_unavailable');
          if (code === null) throw err;
          await this.contractError(code);
          return;
        }
        if (allSigned) {
          await run.moveTo('SIGNED');
          return;
        }
      }
      checkNow = true;
      const wait = polls < SIGNATURE_POLL_FAST_MS.length ? SIGNATURE_POLL_FAST_MS[polls] : SIGNATURE_POLL_SLOW_MS;
      polls += 1;
      await condition(() => this.signaturesMayHaveChanged || run.cancelRequested !== null, wait);
      if (workflowInfo().continueAsNewSuggested && !run.cancelRequested) {
        // Signing has no deadline, so the polling history would grow without bound: start afresh
        // (unless a cancel arrives meanwhile: this run must finish it).
        await condition(() => allHandlersFinished() || run.cancelRequested !== null);
        if (!run.cancelRequested) {
          await run.continueAsNew('CONTRACT_SENT', { contractAttempts: run.state.contractAttempts });
        }
      }
    }
  }
}
