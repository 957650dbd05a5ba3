import type { Knex } from 'knex';
import type { ApiPixClient, ReceivedPix } from '../../providers/api-pix-client';
import { OperationsRepository } from '../../db/repositories/operations';
import { withDatabaseBudget } from '../../db/request-budget';
import { PixChargesRepository } from '../../db/repositories/pix-charges';
import { TitlePaymentsRepository } from '../../db/repositories/title-payments';
import { TitleBooks } from '../../db/repositories/ledger-title-books';
import { pixCharges, pixCollectionPayments } from '../../platform/telemetry/metrics';
import { splitReceivedPix } from '../../domain/collection/pix-split';
import { refundIdOf } from '../../domain/collection/txid';
import { AppError, errorCode, Unavailable } from '../../domain/errors';
import type { Logger } from '../../platform/logger';
import { Money } from '../../domain/money';
import type { TitleStatus } from '../../domain/title-rules';
import type { TemporalHandle } from '../temporal/client';
import type { AuditedRequest } from '../../domain/audit-chain';
import { recordPayerPayment } from '../titles/payer-payments';
import { holdForRetry, holdUnmatched, recordReceipt, refundWhole } from './receipts';

export type FoundBy = 'webhook' | 'sweep';

export interface CollectionContext {
  db: Knex;
  temporal: TemporalHandle;
  psp: ApiPixClient;
  logger: Logger;
}

/** One PIX as it stands on its title after reconciliation. */
export interface ReconciledPix {
  endToEndId: string;
  txid: string;
  titleId: string;
  receivedBrl: string;
  appliedBrl: string;
  lateIncomeBrl: string;
  refundedBrl: string;
  titleStatus: string;
  /** False when an earlier webhook or sweep had already applied it: nothing changed now. */
  newlyApplied: boolean;
}

/** Refusals that mean the title takes nothing more; the PIX goes back whole. */
const TITLE_CLOSED = new Set(['title_already_paid', 'title_balance_locked', 'title_cancelled']);
/** The balance moved between our read and the workflow's check (another payment): read again. */
const BALANCE_MOVED = 'payment_exceeds_outstanding_balance';
const ATTEMPTS = 3;

const codeOf = (err: unknown) => (err instanceof AppError ? errorCode(err) : null);

/**
 * Applies one PIX the PSP received against a title's charge, exactly once whoever reports it
 * (webhook, repeat, sweep): the payment is keyed by its endToEndId through the title's workflow
 * (external_id), the refund by an id derived from it, and the charge revision carries the balance
 * left, so running this again for the same PIX changes nothing. Every PIX is stored first; one that
 * matches no charge of ours (null) waits in suspense when an originator's key received it.
 * `audit`, when staff asked for it, is written with the payment.
 */
export async function reconcilePix(ctx: CollectionContext, pix: ReceivedPix, foundBy: FoundBy, audit?: AuditedRequest): Promise<ReconciledPix | null> {
  const charges = new PixChargesRepository(ctx.db);
  const charge = pix.txid === null ? undefined : await charges.byTxid(pix.txid);
  if (!charge) {
    await holdUnmatched(ctx.db, pix);
    return null;
  }
  await recordReceipt(ctx.db, charge.originatorId, pix, charge.titleId);
  let refundsWhole = false;
  const payments = new TitlePaymentsRepository(ctx.db, charge.originatorId);
  const titles = new OperationsRepository(ctx.db, charge.originatorId);
  let outcome: Omit<ReconciledPix, 'endToEndId' | 'txid' | 'titleId' | 'receivedBrl'> | null = null;
  for (let attempt = 1; outcome === null; attempt += 1) {
    // The title first, then this PIX's payment: the payment and the title's move commit together,
    // so a title read closed with no payment after it was closed by something else. Read the other
    // way round, a repeat racing the first report saw "not applied", then the title closed by this
    // very PIX, and refunded it whole (the fault run found one).
    const title = (await titles.titleById(charge.titleId))!;
    const earlier = await payments.byExternalId(charge.titleId, pix.endToEndId);
    if (earlier) {
      outcome = {
        appliedBrl: earlier.amount, lateIncomeBrl: Money.of(earlier.lateIncomeBrl).toString(), refundedBrl: Money.of(earlier.refundedBrl).toString(),
        titleStatus: title.status, newlyApplied: false,
      };
      break;
    }
    const split = splitReceivedPix(pix, { status: title.status as TitleStatus, outstandingBalance: title.outstandingBalance });
    if (Money.of(split.appliedBrl).isZero()) {
      outcome = { ...split, titleStatus: title.status, newlyApplied: false };
      refundsWhole = true;
      break;
    }
    try {
      const applied = await recordPayerPayment(ctx, ctx.db, charge.originatorId, charge.titleId,
        { paid_amount_brl: split.appliedBrl, external_id: pix.endToEndId, paid_at: pix.paidAt },
        { channel: 'PIX', recordedBy: `psp:${foundBy}`, collected: { receivedBrl: pix.amount, lateIncomeBrl: split.lateIncomeBrl, refundedBrl: split.refundedBrl }, audit });
      outcome = { ...split, titleStatus: applied.title_status, newlyApplied: 'idempotent_replay' in applied && !applied.idempotent_replay };
    } catch (err) {
      const code = codeOf(err);
      const retryable = code === BALANCE_MOVED || (code !== null && TITLE_CLOSED.has(code));
      if (!retryable || attempt >= ATTEMPTS) throw await leftForRetry(ctx, err, code, charge, pix.endToEndId);
    }
  }
  if (refundsWhole) await refundWhole(ctx.db, charge.originatorId, charge.titleId, pix.endToEndId, new Date());
  await settleWithPsp(ctx, charge.txid, pix, outcome);
  if (outcome.newlyApplied) {
    pixCollectionPayments.inc({ found_by: foundBy });
    if (outcome.titleStatus === 'PAID') pixCharges.inc({ outcome: 'paid' });
  }
  return { endToEndId: pix.endToEndId, txid: charge.txid, titleId: charge.titleId, receivedBrl: pix.amount, ...outcome };
}

/**
 * A refusal of the title's payment that reconciliation has no rule for, or one that kept coming
 * back, leaves the PIX unapplied for the PSP's retry or the next sweep: a 503, as the webhook and
 * the sweeps document, never the payment routes' own 409s, which they do not (a PSP retries any
 * failure alike). The refusal is logged: a permanent one would otherwise only show as 503s. Until
 * it is applied the PIX waits in the books' suspense.
 */
async function leftForRetry(ctx: CollectionContext, err: unknown, code: string | null, charge: { originatorId: string; titleId: string }, endToEndId: string): Promise<unknown> {
  if (!(err instanceof AppError) || err.status !== 409) return err;
  ctx.logger.warn('PIX left for a retry: its title refused the payment', { title_id: charge.titleId, end_to_end_id: endToEndId, code });
  await holdForRetry(ctx.db, charge.originatorId, endToEndId);
  return new Unavailable('title_payment_unavailable');
}

/**
 * A webhook or a sweep is a batch of PIX inside one request: each PIX has the request's Postgres
 * wait budget (`budgetMs`) of its own, so a stalled Postgres still fails the batch within the
 * budget but a long batch is never refused for its length (the fault run's sweeps of a few dozen
 * PIX spent one 2 s budget and answered 503 every time).
 */
export function reconcileWithinBudget(ctx: CollectionContext, pix: ReceivedPix, foundBy: FoundBy, budgetMs: number, audit?: AuditedRequest): Promise<ReconciledPix | null> {
  return withDatabaseBudget(budgetMs, () => reconcilePix(ctx, pix, foundBy, audit));
}

/**
 * The PSP's side of a reconciled PIX: the excess refunded (the same refund id each time) and an
 * active charge revised to the balance left. Both are safe to repeat.
 */
async function settleWithPsp(ctx: CollectionContext, txid: string, pix: ReceivedPix, outcome: { refundedBrl: string; titleStatus: string }): Promise<void> {
  const charges = new PixChargesRepository(ctx.db);
  const charge = (await charges.byTxid(txid))!;
  if (!Money.of(outcome.refundedBrl).isZero()) {
    await ctx.psp.refund(pix.endToEndId, refundIdOf(pix.endToEndId), outcome.refundedBrl);
    await new TitleBooks(ctx.db, charge.originatorId).refunded(pix.endToEndId, new Date());
    pixCharges.inc({ outcome: 'refunded' });
  }
  const atPsp = await ctx.psp.getCharge(txid);
  if (!atPsp) return;
  const title = (await new OperationsRepository(ctx.db, charge.originatorId).titleById(charge.titleId))!;
  const left = Money.of(title.outstandingBalance);
  const revised = atPsp.status === 'ATIVA' && !left.isZero() && !Money.of(atPsp.amount).equals(left)
    ? await ctx.psp.reviseCharge(txid, left.toString())
    : atPsp;
  await charges.update(txid, { status: revised.status, revision: revised.revision, amountBrl: revised.amount });
}
