import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { randomBytes } from 'node:crypto';
import { checkCreditLimits, requestedByPayer } from '../../domain/limits';
import { Money } from '../../domain/money';
import { approvalsRequired, initialStatus, LifecycleStatus } from '../../domain/operation-lifecycle';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { Policy, PricedOperation } from '../../domain/pricing';
import type { AssignorRow } from '../../db/repositories/assignors';
import { ExposureRepository } from '../../db/repositories/exposure';
import type { OperationRow, TitleRow } from '../../db/repositories/operations';
import { NewTitleRow, OperationWritesRepository, RemainderRow } from '../../db/repositories/operation-writes';
import type { PayerRow } from '../../db/repositories/payers';
import { enqueueWorkflow, OutboxRow } from '../../db/workflow-outbox';
import { settleNettedDebt } from './debt-netting';
import type { TestClockRow } from '../../db/repositories/test-clocks';
import { operationClockAt } from '../test-clocks/request-time';
import type { ReviewReason } from './double-assignment';
import { afterCommit, operationTransitions } from '../../db/telemetry/metrics';

/** NF-e data a remainder inherits from its receivable (contract: "Partial-anticipation remainder"). */
export interface NfeFields {
  nfe_number?: string | null;
  nfe_serie?: string | null;
  nfe_key?: string | null;
  nfe_issue_date?: string | null;
  /** A MoneyInput: a JSON number or a decimal string, as the body sent it. */
  nfe_total_value?: string | number | null;
}

export interface NewOperation {
  originatorId: string;
  channel: 'direct' | 'stock';
  environment: string;
  assignor: AssignorRow;
  /** This request registered the assignor (its row goes with a refusal). */
  assignorRegisteredNow: boolean;
  policy: Policy;
  productId: string | null;
  embeddedSignature: boolean;
  priced: PricedOperation;
  payers: Map<string, PayerRow>;
  /** Per receivable: the stock item it anticipates (stock path) or its NF-e data (direct path), and what identifies it as an invoice. */
  sources: { stockItemId: string | null; nfe: NfeFields; fingerprint: string | null }[];
  /** Set when the operation must wait for a human whatever its amount (a receivable held by another originator). */
  review?: ReviewReason | null;
  /** Issue #26: the sandbox test clock it lives on; its time is the operation's creation time. */
  clock?: TestClockRow | null;
}

export interface WrittenOperation {
  id: string;
  status: LifecycleStatus;
  /** The workflow start to make once the transaction has committed. */
  outbox: OutboxRow;
  /** The rows as written (titles in id order, with their payer's document and name), for the 201 body. */
  operation: OperationRow;
  titles: TitleRow[];
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `OP-<8>-<8>`: the business date, then 8 random characters an analyst can read over the phone. */
export function displayNumber(businessDate: string): string {
  const random = [...randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `OP-${businessDate.replaceAll('-', '')}-${random}`;
}

/**
 * The write half of both creation routes, inside the caller's transaction (a refusal thrown here
 * rolls back everything written before it): the operation, any remainder, the consumed stock items
 * and the outbox row that gives the operation its workflow; then, under the exposure counters' row
 * locks, the credit limits and the titles (whose trigger moves the counters) and the netting. Every
 * read and every write that does not move exposure comes before the lock, so an originator's
 * operations queue on it only for the check, the titles, the netting and the commit.
 */
export async function writeOperation(trx: Knex, input: NewOperation): Promise<WrittenOperation> {
  const { priced, assignor, policy } = input;
  const payerTotals = requestedByPayer(priced.receivables.map((r) => ({ payerDocument: r.input.payerDocument, requestedBrl: r.input.requestedNetFutureValue })));
  const payerRows = [...payerTotals.keys()].map((document) => input.payers.get(document)!);
  const writes = new OperationWritesRepository(trx);
  const firstContract = !(await writes.hasContract(assignor.id));

  const id = uuidv7();
  const clock = input.clock ?? null;
  const clockTime = clock?.frozenTime;
  const status = input.review ? 'WAITING_APPROVAL' : initialStatus(priced.requestedNetFutureValue, policy.autoApproveLimitBrl);
  const required = status === 'WAITING_APPROVAL' ? approvalsRequired(priced.requestedNetFutureValue, policy.dualApprovalAboveBrl) : 1;
  const number = displayNumber(priced.businessDate);
  const hasPartial = priced.receivables.some((r) => r.input.netFutureValue.gt(r.input.requestedNetFutureValue));
  const operation = await writes.insertOperation({
    id, originatorId: input.originatorId, displayNumber: number, assignorId: assignor.id, policyId: policy.id,
    productId: input.productId, channel: input.channel, lifecycleStatus: status,
    needsBackofficeApproval: status === 'WAITING_APPROVAL', embeddedSignature: input.embeddedSignature,
    hasPartialAnticipations: hasPartial, feeHierarchy: 'receivable > operation > assignor > payer > policy',
    disbursementMethod: assignor.disbursementMethod,
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
    contractType: firstContract ? 'FULL_CONTRACT' : 'ADDENDUM',
    signersCount: 1,
    approvedAt: status === 'APPROVED_DIRECT' ? clockTime ?? new Date() : null,
    reviewReason: input.review ?? null,
    approvalsRequired: required,
    ...(clock ? { testClockId: clock.id, createdAt: clockTime!, updatedAt: clockTime! } : {}),
  });

  const titles: NewTitleRow[] = priced.receivables.map((p, i) => ({
    id: uuidv7(), originatorId: input.originatorId, operationId: id, assignorId: assignor.id,
    payerId: input.payers.get(p.input.payerDocument)!.id, stockItemId: input.sources[i].stockItemId,
    externalId: p.input.externalId, identifier: p.input.identifier, backingType: p.input.backingType, status: 'WAITING_PAYMENT',
    grossFutureValue: p.input.grossFutureValue.toString(), netFutureValue: p.input.netFutureValue.toString(),
    requestedNetFutureValue: p.input.requestedNetFutureValue.toString(), presentValueDiscount: p.discount.toString(),
    netPresentLiquidValue: p.liquid.toString(), outstandingBalance: p.input.requestedNetFutureValue.toString(), paidAmount: '0.00',
    fixedDiscountBrl: p.fixedDiscountBrl.toString(), dueDate: p.input.dueDate, qtyDaysAdvanced: p.daysAdvanced,
    feeSource: p.feeSource, monthlyRatePct: p.monthlyRatePct.toString(), discountPct: p.discountPct.toString(),
    isPartial: p.input.netFutureValue.gt(p.input.requestedNetFutureValue), receivableFingerprint: input.sources[i].fingerprint,
  }));

  const remainders = priced.receivables.flatMap((p, i): RemainderRow[] => {
    const rest = p.input.netFutureValue.minus(p.input.requestedNetFutureValue);
    if (!rest.gt(Money.ZERO) || input.channel !== 'direct') return [];
    const nfe = input.sources[i].nfe;
    return [{
      id: uuidv7(), originatorId: input.originatorId, assignorId: assignor.id, payerId: titles[i].payerId, status: 'IN_STOCK',
      sourceOperationId: id, externalId: `${p.input.externalId}_REMAINDER_${id.slice(0, 8)}`, identifier: p.input.identifier,
      backingType: p.input.backingType, nfeNumber: nfe.nfe_number ?? null, nfeSerie: nfe.nfe_serie ?? null, nfeKey: nfe.nfe_key ?? null,
      nfeIssueDate: nfe.nfe_issue_date ?? null, nfeTotalValue: nfe.nfe_total_value == null ? null : String(nfe.nfe_total_value),
      netFutureValue: rest.toString(), dueDate: p.input.dueDate, preAuthorized: false,
      // The same receivable continuing: it shares the title's claim (docs/decisions.md, "Double assignment").
      receivableFingerprint: input.sources[i].fingerprint,
    }];
  });
  await writes.insertStockItems(remainders);

  const stockIds = input.sources.map((s) => s.stockItemId).filter((s): s is string => s !== null);
  await writes.anticipate(stockIds, id);

  const outbox = await enqueueWorkflow(trx, {
    originatorId: input.originatorId, workflowType: 'operationWorkflow', workflowId: operationWorkflowId(id),
    args: [{
      operationId: id, originatorId: input.originatorId, displayNumber: number, initialStatus: status, embeddedSignature: input.embeddedSignature, approvalsRequired: required,
      ...(clock ? { testClock: operationClockAt(clock) } : {}),
    }],
    searchAttributes: { originatorId: input.originatorId, lifecycleStatus: status, displayNumber: number, environment: input.environment },
  });
  afterCommit(trx, () => operationTransitions.inc({ to: status }));

  // Locked from here to the commit.
  const exposure = await new ExposureRepository(trx, input.originatorId).lockForOperation(assignor.id, payerRows.map((p) => p.id));
  checkCreditLimits({
    policy: {
      minOperationBrl: policy.minOperationValueBrl, maxOperationBrl: policy.maxOperationValueBrl,
      aggregateCeilingBrl: policy.aggregateLimitBrl, assignorDefaultLimitBrl: policy.assignorDefaultLimitBrl,
      payerDefaultLimitBrl: policy.payerDefaultLimitBrl, anchoring: policy.riskAnchoring,
    },
    operationTotalBrl: priced.requestedNetFutureValue,
    assignor: {
      entityId: input.assignorRegisteredNow ? null : assignor.id, document: assignor.document, ownLimitBrl: assignor.limitBrl === null ? null : Money.of(assignor.limitBrl),
      openExposureBrl: exposure.assignor, requestedBrl: priced.requestedNetFutureValue,
    },
    payers: payerRows.map((payer) => ({
      entityId: payer.registeredNow ? null : payer.id, document: payer.document, ownLimitBrl: payer.limitBrl === null ? null : Money.of(payer.limitBrl),
      openExposureBrl: exposure.payers.get(payer.id)!, requestedBrl: payerTotals.get(payer.document)!,
    })),
    aggregateOpenExposureBrl: exposure.originator,
  });
  const payersById = new Map([...input.payers.values()].map((payer) => [payer.id, payer]));
  const titleRows: TitleRow[] = (await writes.insertTitles(titles))
    .map((row) => ({ ...row, payerDocument: payersById.get(row.payerId)!.document, payerName: payersById.get(row.payerId)!.name }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  await settleNettedDebt(trx, { originatorId: input.originatorId, assignorId: assignor.id, operationId: id, amount: priced.otherDebtDiscounts, at: clockTime });
  return { id, status, outbox, operation, titles: titleRows };
}
