import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import type { SentNfe } from '../../domain/nfe-key';
import type { OperationPlan } from '../../domain/operation-creation';
import type { AssignorRow } from './assignors';
import type { NewOperationRow, NewTitleRow, RemainderRow } from './operation-writes';
import type { TestClockRow } from './test-clocks';

/** Per receivable: the stock item it anticipates (stock path), its NF-e data (a remainder inherits it), and what identifies it as an invoice. */
export interface ReceivableSource {
  stockItemId: string | null;
  /** As sent, with the key in its stored form (contract: "Partial-anticipation remainder"). */
  nfe: SentNfe;
  fingerprint: string | null;
}

/** Who the new operation is and where it comes from: what the decision does not say. */
export interface OperationOrigin {
  id: string;
  originatorId: string;
  displayNumber: string;
  channel: 'direct' | 'stock';
  assignor: AssignorRow;
  productId: string | null;
  embeddedSignature: boolean;
  /** The sandbox test clock it lives on; its time is the operation's creation time. */
  clock: TestClockRow | null;
}

/**
 * On a test clock, every row a creation writes (the operation, its titles, a remainder) is created at
 * the clock's time, not the real moment of the request; otherwise the database's default.
 */
function createdAtClock(clock: TestClockRow | null): { createdAt?: Date; updatedAt?: Date } {
  return clock ? { createdAt: clock.frozenTime, updatedAt: clock.frozenTime } : {};
}

/** The operation's row, as the plan decided it. */
export function newOperationRow(origin: OperationOrigin, plan: OperationPlan): NewOperationRow {
  const { priced, policy, status } = plan;
  const { clock } = origin;
  return {
    id: origin.id, originatorId: origin.originatorId, displayNumber: origin.displayNumber, assignorId: origin.assignor.id, policyId: policy.id,
    productId: origin.productId, channel: origin.channel, lifecycleStatus: status,
    needsBackofficeApproval: status === 'WAITING_APPROVAL', embeddedSignature: origin.embeddedSignature,
    hasPartialAnticipations: plan.hasPartialAnticipations, feeHierarchy: 'receivable > operation > assignor > payer > policy',
    disbursementMethod: origin.assignor.disbursementMethod,
    oprGrossFutureValue: priced.grossFutureValue.toString(),
    oprNetFutureValue: priced.netFutureValue.toString(),
    oprRequestedNetFutureValue: priced.requestedNetFutureValue.toString(),
    oprPresentValueDiscount: priced.presentValueDiscount.toString(),
    oprNetLiquidValue: priced.netLiquidValue.toString(),
    otherDebtDiscounts: (priced.otherDebtDiscounts ?? Money.ZERO).toString(),
    oprNetPresentLiquidValue: priced.netPresentLiquidValue.toString(),
    averageDaysInAdvance: priced.averageDaysInAdvance,
    weightedAvgDays: priced.weightedAvgDays.toString(),
    floatingDays: priced.floatingDays,
    cetMonthlyPct: priced.cetMonthlyPct.toDecimalPlaces(6).toString(),
    cetAnnualPct: priced.cetAnnualPct.toDecimalPlaces(6).toString(),
    contractType: plan.contractType,
    signersCount: 1,
    approvedAt: status === 'APPROVED_DIRECT' ? clock?.frozenTime ?? new Date() : null,
    reviewReason: plan.review,
    approvalsRequired: plan.approvalsRequired,
    ...(clock ? { testClockId: clock.id, ...createdAtClock(clock) } : {}),
  };
}

/** One title per priced receivable, in the request's order; `payerIdOf` maps a payer document to its row. */
export function newTitleRows(origin: OperationOrigin, plan: OperationPlan, sources: readonly ReceivableSource[], payerIdOf: (document: string) => string): NewTitleRow[] {
  return plan.priced.receivables.map((p, i) => ({
    id: uuidv7(), originatorId: origin.originatorId, operationId: origin.id, assignorId: origin.assignor.id,
    payerId: payerIdOf(p.input.payerDocument), stockItemId: sources[i].stockItemId,
    externalId: p.input.externalId, identifier: p.input.identifier, backingType: p.input.backingType, status: 'WAITING_PAYMENT',
    grossFutureValue: p.input.grossFutureValue.toString(), netFutureValue: p.input.netFutureValue.toString(),
    requestedNetFutureValue: p.input.requestedNetFutureValue.toString(), presentValueDiscount: p.discount.toString(),
    netPresentLiquidValue: p.liquid.toString(), outstandingBalance: p.input.requestedNetFutureValue.toString(), paidAmount: '0.00',
    fixedDiscountBrl: p.fixedDiscountBrl.toString(), dueDate: p.input.dueDate, qtyDaysAdvanced: p.daysAdvanced,
    feeSource: p.feeSource, monthlyRatePct: p.monthlyRatePct.toString(), discountPct: p.discountPct.toString(),
    isPartial: p.input.netFutureValue.gt(p.input.requestedNetFutureValue), receivableFingerprint: sources[i].fingerprint,
    ...createdAtClock(origin.clock),
  }));
}

/** What a direct creation's partial anticipations leave in stock: one item per receivable not anticipated in full. */
export function remainderRows(origin: OperationOrigin, plan: OperationPlan, sources: readonly ReceivableSource[], titles: readonly NewTitleRow[]): RemainderRow[] {
  return plan.priced.receivables.flatMap((p, i): RemainderRow[] => {
    const rest = p.input.netFutureValue.minus(p.input.requestedNetFutureValue);
    if (!rest.gt(Money.ZERO) || origin.channel !== 'direct') return [];
    const nfe = sources[i].nfe;
    return [{
      id: uuidv7(), originatorId: origin.originatorId, assignorId: origin.assignor.id, payerId: titles[i].payerId, status: 'IN_STOCK',
      sourceOperationId: origin.id, externalId: `${p.input.externalId}_REMAINDER_${origin.id.slice(0, 8)}`, identifier: p.input.identifier,
      backingType: p.input.backingType, nfeNumber: nfe.number, nfeSerie: nfe.serie, nfeKey: nfe.key,
      nfeIssueDate: nfe.issueDate, nfeTotalValue: nfe.totalValue,
      netFutureValue: rest.toString(), dueDate: p.input.dueDate, preAuthorized: false,
      // The same receivable continuing: it shares the title's claim (docs/decisions.md, "Double assignment").
      receivableFingerprint: sources[i].fingerprint,
      ...createdAtClock(origin.clock),
    }];
  });
}
