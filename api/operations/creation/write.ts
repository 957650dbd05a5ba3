import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { displayNumber } from '../../../domain/display-number';
import type { OperationPlan } from '../../../domain/operation-creation';
import type { LifecycleStatus } from '../../../domain/operation-lifecycle';
import { operationWorkflowId } from '../../../domain/workflow-ids';
import type { AssignorRow } from '../../../db/repositories/assignors';
import type { OperationRow, TitleRow } from '../../../db/repositories/operations';
import { newOperationRow, newTitleRows, OperationOrigin, ReceivableSource, remainderRows } from '../../../db/repositories/operation-rows';
import { NewTitleRow, OperationWritesRepository } from '../../../db/repositories/operation-writes';
import type { PayerRow } from '../../../db/repositories/payers';
import { enqueueWorkflow, OutboxRow } from '../../../db/workflow-outbox';
import type { TestClockRow } from '../../../db/repositories/test-clocks';
import { operationClockAt } from '../../test-clocks/request-time';
import { afterCommit, operationTransitions } from '../../../platform/telemetry/metrics';

export interface NewOperation {
  originatorId: string;
  channel: 'direct' | 'stock';
  environment: string;
  assignor: AssignorRow;
  productId: string | null;
  embeddedSignature: boolean;
  /** What creation decided (domain/operation-creation.ts). */
  plan: OperationPlan;
  payers: Map<string, PayerRow>;
  sources: readonly ReceivableSource[];
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

/** What `writeOperation` has written, and the titles it leaves to write once the credit limits are checked. */
export type PendingOperation = Omit<WrittenOperation, 'titles'> & { titles: NewTitleRow[] };

/**
 * The writes that do not move exposure, inside the caller's transaction: the operation, any
 * remainder, the consumed stock items and the outbox row that gives the operation its workflow.
 */
export async function writeOperation(trx: Knex, input: NewOperation): Promise<PendingOperation> {
  const { plan, assignor } = input;
  const { status, approvalsRequired } = plan;
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
  return { id, status, outbox, operation, titles };
}

/** The titles (their trigger moves the exposure counters), returned in id order with their payer's document and name and the policy's grace days. */
export async function writeTitles(trx: Knex, titles: NewTitleRow[], payers: ReadonlyMap<string, PayerRow>, graceDays: number): Promise<TitleRow[]> {
  const payersById = new Map([...payers.values()].map((payer) => [payer.id, payer]));
  return (await new OperationWritesRepository(trx).insertTitles(titles))
    .map((row) => ({ ...row, payerDocument: payersById.get(row.payerId)!.document, payerName: payersById.get(row.payerId)!.name, graceDays }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}
