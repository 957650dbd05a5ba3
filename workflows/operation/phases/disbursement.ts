import { condition, patched, setHandler } from '@temporalio/workflow';
import type { AuditedRequest } from '../../../domain/audit-chain';
import type { DisbursementOutcome } from '../../../domain/lifecycle-messages';
import { localReconciliation } from '../proxies';
import { disbursementSettledSignal, retryDisbursementUpdate, RetryInput } from '../messages';
import { failureCode, OperationRun } from '../operation-run';
import { backingStillHolds, PayerWait } from './backing-checks';
import { PIX_REJECTED, PIX_SETTLEMENT_POLL_MS, PIX_UNAVAILABLE } from '../../../domain/pix-retry';

/** Operations that retried a PIX without checking what backs them again replay as they ran. */
const RECHECK_BEFORE_RETRY_PATCH = 'nfe-check-before-pix-retry';

/**
 * Disbursement: one PIX per attempt, its idempotency key derived from the operation and the
 * attempt. A refusal, a payment the provider no longer has, or an activity that gave up leaves
 * DISBURSEMENT_FAILED for a human to retry (a new attempt, a new key) or cancel: domain/pix-retry.ts.
 */
export class DisbursementPhase {
  private settlementReported = false;
  /** The last attempt whose move to DISBURSING is written (a staff retry's audit row with it). */
  private writtenAttempt = 0;
  private readonly reconcileAndMarkPaid = localReconciliation();
  private readonly payerWait: PayerWait = { recheckAt: null };

  constructor(private readonly run: OperationRun) {}

  install(): void {
    // Answered by the move to DISBURSING that honours it (OperationRun.setStatus); a staff retry
    // once that move and its audit row are written, so its caller never answers before its row.
    // Only an update that carries `audit` waits, and no history recorded before it has one.
    setHandler(retryDisbursementUpdate, async ({ requestedBy, audit }) => {
      const state = await this.run.request('retryDisbursement', { requestedBy, reason: null, audit });
      if (audit) await condition(() => this.writtenAttempt >= state.disbursementAttempts);
      return state;
    }, {
      validator: (_input: RetryInput) => this.run.refuseUnlessAccepted('retryDisbursement'),
    });
    setHandler(disbursementSettledSignal, () => { this.settlementReported = true; });
  }

  /** On a test clock: nothing due up to the clock's time (no re-check for a payer's confirmation the clock has passed). */
  restsAtClockTime(): boolean {
    return this.payerWait.recheckAt === null || !this.run.hasReached(this.payerWait.recheckAt);
  }

  /** Resolves true once PAID, false when cancelled (what backs it refused before the PIX, or after a failed attempt). */
  async untilPaid(): Promise<boolean> {
    const { run } = this;
    if (!(await backingStillHolds(run, this.payerWait))) return false;
    let retryAudit: AuditedRequest | undefined;
    for (;;) {
      const outcome = await this.attempt(retryAudit);
      if (outcome.status === 'SETTLED') {
        run.setStatus('PAID');
        return true;
      }
      run.state.lastError = outcome.reason ?? PIX_REJECTED;
      await run.moveTo('DISBURSEMENT_FAILED', { errorCode: run.state.lastError });
      await condition(() => run.retryRequested || run.cancelRequested !== null);
      if (run.cancelRequested) {
        await run.finishCancelled();
        return false;
      }
      retryAudit = run.retryAudit;
      // A retry is a new PIX, maybe days after the last check: the invoice may have been cancelled or disowned since.
      if (patched(RECHECK_BEFORE_RETRY_PATCH) && !(await backingStillHolds(run, this.payerWait))) return false;
    }
  }

  private async attempt(audit?: AuditedRequest): Promise<DisbursementOutcome> {
    const { run } = this;
    const attempt = (run.state.disbursementAttempts += 1);
    const key = { operationId: run.input.operationId, attempt };
    this.settlementReported = false;
    await run.moveTo('DISBURSING', { audit });
    this.writtenAttempt = attempt;
    try {
      let outcome = await run.pix.startDisbursement(key);
      while (outcome.status === 'PENDING') {
        await condition(() => this.settlementReported, PIX_SETTLEMENT_POLL_MS);
        this.settlementReported = false;
        outcome = await run.pix.getDisbursement(key);
      }
      if (outcome.status !== 'SETTLED') return outcome;
      return await run.activity.during({ kind: 'reconciliation', attempt }, () => this.reconcileAndMarkPaid({ ...key, workflowId: run.workflowId, ...run.at() }));
    } catch (err) {
      const code = failureCode(err, PIX_UNAVAILABLE);
      if (code === null) throw err;
      return { status: 'REJECTED', reason: code };
    }
  }
}
