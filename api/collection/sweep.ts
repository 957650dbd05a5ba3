import { type CollectionContext, reconcileWithinBudget, ReconciledPix } from './reconcile';
import type { Schema } from '../openapi/contract-types';
import type { AuditedRequest } from '../../domain/audit-chain';
import { errorCode, Unavailable } from '../../domain/errors';
import { knownFailure } from '../http/known-failure';
import { withPsp } from './psp-failure';

/** A PIX the sweep could not apply this time, and the contract's code for why. */
export interface UnappliedPix {
  endToEndId: string;
  txid: string | null;
  code: string;
}

export interface SweepResult {
  from: Date;
  to: Date;
  /** The PIX the webhooks had missed, applied now. */
  applied: ReconciledPix[];
  /** The PIX that failed, each for a reason of its own, left for the next run. */
  unapplied: UnappliedPix[];
}

/**
 * Failures that every PIX after this one would meet alike (Postgres or the PSP down): the sweep
 * ends there, as it always did, rather than wait out each PIX's budget in turn.
 */
const SERVICE_WIDE = new Set(['database_unavailable', 'pix_collection_unavailable']);

/**
 * Lists what the PSP received in the window and reconciles each PIX (within its own Postgres
 * budget; the PSP down or refusing answers 503 `pix_collection_unavailable`): one already applied
 * changes nothing, so the window overlaps the previous sweep's on purpose (a PIX late to be listed
 * is not missed). A PIX that cannot be applied now (its title's workflow not answering, a refusal
 * reconciliation has no rule for) is set aside and the sweep goes on: one stuck title must not
 * hold every other payer's payment until it is freed. Run by staff (`audit`), each PIX it applies
 * has its row, written with the payment.
 */
export async function sweepCollection(ctx: CollectionContext, window: { hours: number; budgetMs: number }, now: Date, audit?: AuditedRequest): Promise<SweepResult> {
  const from = new Date(now.getTime() - window.hours * 3_600_000);
  const applied: ReconciledPix[] = [];
  const unapplied: UnappliedPix[] = [];
  for (const pix of await withPsp(() => ctx.psp.receivedBetween(from, now))) {
    try {
      const reconciled = await withPsp(() => reconcileWithinBudget(ctx, pix, 'sweep', window.budgetMs, audit));
      if (reconciled?.newlyApplied) applied.push(reconciled);
    } catch (err) {
      const known = knownFailure(err);
      if (known && SERVICE_WIDE.has(errorCode(known.error))) throw known.error;
      const code = known ? errorCode(known.error) : 'internal_error';
      const fields = { end_to_end_id: pix.endToEndId, txid: pix.txid, code, err: (err as Error).message };
      if (known) ctx.logger.warn('collection sweep: PIX left for the next run', fields);
      else ctx.logger.error('collection sweep: PIX left for the next run', { ...fields, stack: (err as Error).stack });
      unapplied.push({ endToEndId: pix.endToEndId, txid: pix.txid, code });
    }
  }
  return { from, to: now, applied, unapplied };
}

export function presentReconciledPix(pix: ReconciledPix) {
  return {
    end_to_end_id: pix.endToEndId, txid: pix.txid, title_id: pix.titleId, received_brl: pix.receivedBrl, applied_brl: pix.appliedBrl,
    late_income_brl: pix.lateIncomeBrl, refunded_brl: pix.refundedBrl, title_status: pix.titleStatus,
  };
}

/**
 * The sweep's answer: the 200 body when every PIX listed is applied; else 503 `collection_sweep_incomplete`
 * naming what it applied and what it left, so that the caller (the Schedule's activity, staff)
 * sees a failure to retry while what was applied stays applied.
 */
export function answerSweep(sweep: SweepResult): Schema<'CollectionSweep'> {
  const window = { from: sweep.from.toISOString(), to: sweep.to.toISOString() };
  const applied = sweep.applied.map(presentReconciledPix);
  if (sweep.unapplied.length > 0) {
    throw new Unavailable({
      code: 'collection_sweep_incomplete',
      message: `${sweep.unapplied.length} PIX could not be applied now and are left for the next sweep; the others are applied`,
      ...window,
      applied,
      unapplied: sweep.unapplied.map((pix) => ({ end_to_end_id: pix.endToEndId, txid: pix.txid, code: pix.code })),
    });
  }
  return { ...window, applied };
}
