import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { displayNumber } from '../../domain/display-number';
import { decideCreditLimits, OperationPlan, requestedOfPayers } from '../../domain/operation-creation';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { AssignorRow } from '../../db/repositories/assignors';
import { ExposureRepository } from '../../db/repositories/exposure';
import type { OperationRow, TitleRow } from '../../db/repositories/operations';
import { newOperationRow, newTitleRows, OperationOrigin, ReceivableSource, remainderRows } from '../../db/repositories/operation-rows';
import { OperationWritesRepository } from '../../db/repositories/operation-writes';
import type { PayerRow } from '../../db/repositories/payers';
import { enqueueWorkflow, OutboxRow } from '../../db/workflow-outbox';
import { settleNettedDebt } from './debt-netting';
import type { TestClockRow } from '../../db/repositories/test-clocks';
import { operationClockAt } from '../test-clocks/request-time';
import { afterCommit, operationTransitions } from '../../platform/telemetry/metrics';

export interface NewOperation {
  originatorId: string;
  channel: 'direct' | 'stock';
  environment: string;
  assignor: AssignorRow;
  /** This request registered the assignor (its row goes with a refusal). */
  assignorRegisteredNow: boolean;
  productId: string | null;
  embeddedSignature: boolean;
  /** What creation decided (domain/operation-creation.ts). */
  plan: OperationPlan;
  payers: Map<string, PayerRow>;
  sources: ReceivableSource[];
  /** The sandbox test clock it lives on; its time is the operation's creation time. */
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

/**
 * The write half of both creation routes, inside the caller's transaction (a refusal thrown here
 * rolls back everything written before it): the operation, any remainder, the consumed stock items
 * and the outbox row that gives the operation its workflow; then, under the exposure counters' row
 * locks, the credit limits and the titles (whose trigger moves the counters) and the netting. Every
 * read and every write that does not move exposure comes before the lock, so an originator's
 * operations queue on it only for the check, the titles, the netting and the commit.
 */
export async function writeOperation(trx: Knex, input: NewOperation): Promise<WrittenOperation> {
  const { plan, assignor } = input;
  const { status, approvalsRequired } = plan;
  const payerRows = [...requestedOfPayers(plan).keys()].map((document) => input.payers.get(document)!);
  const writes = new OperationWritesRepository(trx);
  const clock = input.clock ?? null;
  const origin: OperationOrigin = {
    id: uuidv7(), originatorId: input.originatorId, displayNumber: displayNumber(plan.priced.businessDate), channel: input.channel,
    assignor, productId: input.productId, embeddedSignature: input.embeddedSignature, clock,
  };
  const { id, displayNumber: number } = origin;
  const operation = await writes.insertOperation(newOperationRow(origin, plan));
  const titles = newTitleRows(origin, plan, input.sources, (document) => input.payers.get(document)!.id);
  await writes.insertStockItems(remainderRows(origin, plan, input.sources, titles));
  await writes.anticipate(input.sources.map((s) => s.stockItemId).filter((s): s is string => s !== null), id, clock?.frozenTime ?? new Date());

  const outbox = await enqueueWorkflow(trx, {
    originatorId: input.originatorId, workflowType: 'operationWorkflow', workflowId: operationWorkflowId(id),
    args: [{
      operationId: id, originatorId: input.originatorId, displayNumber: number, initialStatus: status, embeddedSignature: input.embeddedSignature, approvalsRequired,
      ...(clock ? { testClock: operationClockAt(clock) } : {}),
    }],
    searchAttributes: { originatorId: input.originatorId, lifecycleStatus: status, displayNumber: number, environment: input.environment },
  });
  afterCommit(trx, () => operationTransitions.inc({ to: status }));

  // Locked from here to the commit.
  const exposure = await new ExposureRepository(trx, input.originatorId).lockForOperation(assignor.id, payerRows.map((p) => p.id));
  const limits = decideCreditLimits(plan, { assignor: { ...assignor, registeredNow: input.assignorRegisteredNow }, payers: payerRows }, exposure);
  if (limits.refusal) throw limits.refusal;
  const payersById = new Map([...input.payers.values()].map((payer) => [payer.id, payer]));
  const titleRows: TitleRow[] = (await writes.insertTitles(titles))
    .map((row) => ({ ...row, payerDocument: payersById.get(row.payerId)!.document, payerName: payersById.get(row.payerId)!.name, graceDays: plan.policy.graceDays }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  await settleNettedDebt(trx, { originatorId: input.originatorId, assignorId: assignor.id, operationId: id, amount: plan.priced.otherDebtDiscounts, at: clock?.frozenTime });
  return { id, status, outbox, operation, titles: titleRows };
}
