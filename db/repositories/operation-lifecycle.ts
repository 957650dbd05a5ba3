import type { Knex } from 'knex';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import { recordTitleEvent } from './record-events';

/** What the lifecycle activities read of an operation. */
export interface LifecycleOperation {
  id: string;
  originatorId: string;
  displayNumber: string;
  lifecycleStatus: LifecycleStatus;
  requestedNetFutureValue: string;
  netPresentLiquidValue: string;
  presentValueDiscount: string;
  grossFutureValue: string;
  approvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface LifecycleRow {
  id: string;
  originator_id: string;
  display_number: string;
  lifecycle_status: LifecycleStatus;
  opr_requested_net_future_value: string;
  opr_net_present_liquid_value: string;
  opr_present_value_discount: string;
  opr_gross_future_value: string;
  approved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toOperation = (row: LifecycleRow): LifecycleOperation => ({
  id: row.id, originatorId: row.originator_id, displayNumber: row.display_number, lifecycleStatus: row.lifecycle_status,
  requestedNetFutureValue: row.opr_requested_net_future_value, netPresentLiquidValue: row.opr_net_present_liquid_value,
  presentValueDiscount: row.opr_present_value_discount, grossFutureValue: row.opr_gross_future_value,
  approvedAt: row.approved_at, createdAt: row.created_at, updatedAt: row.updated_at,
});

/** Columns a move may set besides the status. */
export interface MoveColumns {
  approvedAt?: Date;
  denyReason?: string | null;
  cancelReason?: string | null;
  cancellationReason?: string;
}

/** The operation's read model as its workflow moves it (across originators: the workflow knows its operation by id). */
export class OperationLifecycleRepository {
  constructor(private readonly db: Knex) {}

  async byId(id: string): Promise<LifecycleOperation | undefined> {
    const row = await this.db('operations').where({ id }).first();
    return row && toOperation(row);
  }

  /** Within a transaction: the row locked until it commits. */
  async lock(id: string): Promise<LifecycleOperation | undefined> {
    const row = await this.db('operations').where({ id }).forUpdate().first();
    return row && toOperation(row);
  }

  async move(id: string, to: LifecycleStatus, columns: MoveColumns, at: Date): Promise<LifecycleOperation> {
    const [row] = await this.db('operations').where({ id }).update({
      lifecycle_status: to, updated_at: at,
      ...(columns.approvedAt !== undefined ? { approved_at: columns.approvedAt } : {}),
      ...(columns.denyReason !== undefined ? { deny_reason: columns.denyReason } : {}),
      ...(columns.cancelReason !== undefined ? { cancel_reason: columns.cancelReason } : {}),
      ...(columns.cancellationReason !== undefined ? { cancellation_reason: columns.cancellationReason } : {}),
    }).returning('*');
    return toOperation(row);
  }

  /** A released operation: its titles cancelled (each with `title.cancelled`), the stock items it consumed back in stock. */
  async release(id: string, at: Date): Promise<void> {
    const cancelled = await this.db('titles').where({ operation_id: id }).whereNot({ status: 'CANCELLED' })
      .update({ status: 'CANCELLED', updated_at: at }).returning(['id', 'originator_id', 'operation_id', 'external_id', 'outstanding_balance']);
    for (const title of cancelled) {
      await recordTitleEvent(this.db, { id: title.id, originatorId: title.originator_id, operationId: title.operation_id, externalId: title.external_id }, 'title.cancelled', {
        outstanding_balance: title.outstanding_balance,
      }, 0, at);
    }
    await this.db('stock_items').where({ operation_id: id, status: 'ANTICIPATED' }).update({ status: 'IN_STOCK', operation_id: null, updated_at: at });
  }
}
