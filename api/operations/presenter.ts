import { renderMoney } from '../../domain/vocabulary';
import type { Knex } from 'knex';
import { NotFound } from '../../domain/errors';
import { overdueAt } from '../../domain/title-rules';
import { OperationsRepository, type OperationRow, type TitleRow } from '../../db/repositories/operations';
import type { Schema } from '../openapi/contract-types';
import { NfeChecksRepository, type StoredNfeCheck } from '../../db/repositories/nfe-checks';
import { nfeCheckView } from '../../domain/sefaz/nfe-check-view';
import { registrationView } from '../../domain/escriturador/registration';

const rate = (value: string | null) => (value === null ? null : Number(value));

export function presentTitle(t: TitleRow): Schema<'Title'> {
  return {
    id: t.id,
    operation_id: t.operationId,
    external_id: t.externalId,
    identifier: t.identifier,
    backing_type: t.backingType,
    status: t.status,
    payer_name: t.payerName,
    payer_document: t.payerDocument,
    ...renderMoney({
      gross_future_value: t.grossFutureValue,
      net_future_value: t.netFutureValue,
      requested_net_future_value: t.requestedNetFutureValue,
      present_value_discount: t.presentValueDiscount,
      net_present_liquid_value: t.netPresentLiquidValue,
    }),
    outstanding_balance: t.outstandingBalance,
    paid_amount: t.paidAmount,
    due_date: t.dueDate,
    qty_days_advanced: t.qtyDaysAdvanced,
    fee_source: t.feeSource,
    monthly_rate_pct: rate(t.monthlyRatePct),
    discount_pct: rate(t.discountPct),
    fixed_discount_brl: t.fixedDiscountBrl,
    is_partial: t.isPartial,
    stock_item_id: t.stockItemId,
    grace_days: t.graceDays ?? 0,
    overdue_at: overdueAt(t.dueDate, t.graceDays ?? 0),
    pix_charge: t.pixTxid === null ? null : {
      txid: t.pixTxid, status: t.pixStatus!, br_code: t.pixBrCode!, expires_at: t.pixExpiresAt!.toISOString(),
    },
    dispute: t.disputedAt === null ? null : {
      reason: t.disputeReason!, cstat: t.disputeCstat!, xmotivo: t.disputeXmotivo!, payer_event: t.disputePayerEvent, disputed_at: t.disputedAt.toISOString(),
    },
    registration: registrationView(t.receivableFingerprint, t.registration),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/**
 * Creation answers differ by channel, as the contract says: direct creation fills `status` and
 * leaves `lifecycle_status` and `created_at` null; the stock path and every read do the opposite,
 * and the stock path's `disbursement_method` is null.
 */
export type OperationView = 'direct_creation' | 'stock_creation' | 'read';

export function presentOperation(op: OperationRow, titles: TitleRow[], view: OperationView, checks: ReadonlyMap<string, StoredNfeCheck> = new Map()): Schema<'Operation'> {
  const direct = view === 'direct_creation';
  return {
    id: op.id,
    display_number: op.displayNumber,
    status: direct ? op.lifecycleStatus : null,
    lifecycle_status: direct ? null : op.lifecycleStatus,
    assignor_id: op.assignorId,
    ...renderMoney({
      opr_gross_future_value: op.oprGrossFutureValue,
      opr_net_future_value: op.oprNetFutureValue,
      opr_present_value_discount: op.oprPresentValueDiscount,
      opr_net_present_liquid_value: op.oprNetPresentLiquidValue,
    }),
    opr_requested_net_future_value: op.oprRequestedNetFutureValue,
    opr_net_liquid_value: op.oprNetLiquidValue,
    other_debt_discounts: op.otherDebtDiscounts,
    average_days_in_advance: op.averageDaysInAdvance,
    weighted_avg_days: Number(op.weightedAvgDays),
    floating_days: op.floatingDays,
    cet_monthly_pct: Number(op.cetMonthlyPct),
    cet_annual_pct: Number(op.cetAnnualPct),
    product_id: op.productId,
    policy_id: op.policyId,
    needs_backoffice_approval: op.needsBackofficeApproval,
    embedded_signature: op.embeddedSignature,
    created_at: direct ? null : op.createdAt.toISOString(),
    updated_at: op.updatedAt.toISOString(),
    titles: titles.map((t) => ({ ...presentTitle(t), nfe_check: nfeCheckView(t.receivableFingerprint, checks.get(t.id)) })),
    fee_hierarchy: op.feeHierarchy,
    has_partial_anticipations: op.hasPartialAnticipations,
    contract_details: { type: op.contractType, signature_date: null, signer_token: null },
    signers_count: op.signersCount,
    disbursement_method: view === 'stock_creation' ? null : op.disbursementMethod,
    cancellation_reason: op.cancellationReason,
    ...(op.testClockId ? { test_clock_id: op.testClockId } : {}),
  };
}

/** Reads the operation back through the tenant's repository and renders it for `view`. */
export async function renderOperation(db: Knex, originatorId: string, id: string, view: OperationView) {
  const repository = new OperationsRepository(db, originatorId);
  const op = await repository.byId(id);
  if (!op) throw new NotFound('operation_not_found');
  const [titles, checks] = await Promise.all([repository.titlesOf([id]), new NfeChecksRepository(db).latestOf([id], originatorId)]);
  return presentOperation(op, titles, view, checks);
}

/** The reads of the originator's operations among `ids`, as JSON (UTF-8) by id: two queries whatever their number. */
export async function renderOperationReads(db: Knex, originatorId: string, ids: string[]): Promise<Map<string, Buffer>> {
  const repository = new OperationsRepository(db, originatorId);
  const [operations, titles, checks] = await Promise.all([repository.byIds(ids), repository.titlesOf(ids), new NfeChecksRepository(db).latestOf(ids, originatorId)]);
  const titlesOf = new Map<string, TitleRow[]>(operations.map((op) => [op.id, []]));
  for (const title of titles) titlesOf.get(title.operationId)?.push(title);
  return new Map(operations.map((op) => [op.id, Buffer.from(JSON.stringify(presentOperation(op, titlesOf.get(op.id)!, 'read', checks)))]));
}
