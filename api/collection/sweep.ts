import { type CollectionContext, reconcileWithinBudget, ReconciledPix } from './reconcile';
import type { Schema } from '../openapi/contract-types';
import type { AuditedRequest } from '../../domain/audit-chain';

export interface SweepResult {
  from: Date;
  to: Date;
  /** The PIX the webhooks had missed, applied now. */
  applied: ReconciledPix[];
}

/**
 * Lists what the PSP received in the window and reconciles each PIX (within its own Postgres
 * budget): one already applied changes nothing, so the window overlaps the previous sweep's on
 * purpose (a PIX late to be listed is not missed). Run by staff (`audit`), each PIX it applies
 * has its row, written with the payment.
 */
export async function sweepCollection(ctx: CollectionContext, window: { hours: number; budgetMs: number }, now: Date, audit?: AuditedRequest): Promise<SweepResult> {
  const from = new Date(now.getTime() - window.hours * 3_600_000);
  const applied: ReconciledPix[] = [];
  for (const pix of await ctx.psp.receivedBetween(from, now)) {
    const reconciled = await reconcileWithinBudget(ctx, pix, 'sweep', window.budgetMs, audit);
    if (reconciled?.newlyApplied) applied.push(reconciled);
  }
  return { from, to: now, applied };
}

export function presentReconciledPix(pix: ReconciledPix) {
  return {
    end_to_end_id: pix.endToEndId, txid: pix.txid, title_id: pix.titleId, received_brl: pix.receivedBrl, applied_brl: pix.appliedBrl,
    late_income_brl: pix.lateIncomeBrl, refunded_brl: pix.refundedBrl, title_status: pix.titleStatus,
  };
}

export function presentSweep(sweep: SweepResult): Schema<'CollectionSweep'> {
  return { from: sweep.from.toISOString(), to: sweep.to.toISOString(), applied: sweep.applied.map(presentReconciledPix) };
}
