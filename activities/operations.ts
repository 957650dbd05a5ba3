import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { eventId, EventType } from '../domain/events';
import { LifecycleStatus, statesLeadingTo } from '../domain/operation-lifecycle';
import { recordEvent } from '../db/repositories/events';
import { PayablesLedger } from '../db/repositories/payables-ledger';

export interface OperationActivityDeps {
  db: Knex;
}

interface OperationRow {
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
}

/** Events that a move into a state records (DESIGN.md §5). */
const EVENT_ON_ENTRY: Partial<Record<LifecycleStatus, EventType>> = {
  PRE_APPROVED: 'operation.approved',
  SIGNED: 'operation.contract_signed',
  PAID: 'operation.paid',
  DENIED: 'operation.denied',
  CANCELLED: 'operation.cancelled',
};

function baseData(op: OperationRow): Record<string, unknown> {
  return { operation_id: op.id, display_number: op.display_number, originator_id: op.originator_id };
}

async function loadForUpdate(trx: Knex, operationId: string): Promise<OperationRow> {
  const op = await trx('operations').where({ id: operationId }).forUpdate().first();
  if (!op) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
  return op;
}

/**
 * Moves the read model to `to` from a state the table (domain/operation-lifecycle.ts) allows it
 * from, and records the event of the move, in one transaction. A retry after a commit finds the
 * row already in `to` and changes nothing.
 */
export async function moveOperation(db: Knex, args: { operationId: string; workflowId: string; to: LifecycleStatus; columns?: Record<string, unknown>; data?: Record<string, unknown> }): Promise<OperationRow | null> {
  return db.transaction(async (trx) => {
    const op = await loadForUpdate(trx, args.operationId);
    if (op.lifecycle_status === args.to) return null;
    if (!statesLeadingTo(args.to).includes(op.lifecycle_status)) {
      throw ApplicationFailure.nonRetryable(`cannot move ${op.lifecycle_status} to ${args.to}`, 'invalid_transition');
    }
    const now = new Date();
    const [updated] = await trx('operations').where({ id: op.id })
      .update({ lifecycle_status: args.to, updated_at: now, ...args.columns }).returning('*');
    const type = EVENT_ON_ENTRY[args.to];
    if (type) {
      await recordEvent(trx, {
        eventId: eventId(args.workflowId, type), originatorId: op.originator_id, eventType: type, occurredAt: now,
        data: { ...baseData(updated), ...args.data },
      });
    }
    return updated;
  });
}

export function createOperationActivities({ db }: OperationActivityDeps) {
  return {
    /** `operation.created`, then `operation.approved` (born approved) or `operation.approval_requested`. */
    async recordOperationCreated({ operationId, workflowId }: { operationId: string; workflowId: string }): Promise<void> {
      const op: OperationRow | undefined = await db('operations').where({ id: operationId }).first();
      if (!op) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
      const amounts = {
        opr_gross_future_value: op.opr_gross_future_value,
        requested_net_future_value: op.opr_requested_net_future_value,
        opr_present_value_discount: op.opr_present_value_discount,
        opr_net_present_liquid_value: op.opr_net_present_liquid_value,
      };
      const born = op.lifecycle_status;
      const events: [EventType, Record<string, unknown>][] = [['operation.created', { ...baseData(op), lifecycle_status: born, ...amounts }]];
      if (born === 'APPROVED_DIRECT') {
        events.push(['operation.approved', { ...baseData(op), lifecycle_status: born, approved_at: (op.approved_at ?? op.created_at).toISOString() }]);
      } else {
        events.push(['operation.approval_requested', { ...baseData(op), requested_net_future_value: op.opr_requested_net_future_value }]);
      }
      await db.transaction(async (trx) => {
        for (const [type, data] of events) {
          await recordEvent(trx, { eventId: eventId(workflowId, type), originatorId: op.originator_id, eventType: type, data, occurredAt: op.created_at });
        }
      });
    },

    async transitionOperation(args: { operationId: string; workflowId: string; to: LifecycleStatus; decidedBy?: string; note?: string | null; errorCode?: string }): Promise<void> {
      const approvedAt = new Date();
      await moveOperation(db, {
        ...args,
        columns: args.to === 'PRE_APPROVED' ? { approved_at: approvedAt } : {},
        data: args.to === 'PRE_APPROVED'
          ? { lifecycle_status: 'PRE_APPROVED', approved_at: approvedAt.toISOString(), approved_by: args.decidedBy ?? null }
          : {},
      });
    },

    /**
     * Denial or cancellation: the operation ends, its titles are cancelled (releasing exposure)
     * and the stock items it consumed return to IN_STOCK; debt it netted is owed again.
     */
    async releaseOperation(args: { operationId: string; workflowId: string; to: 'DENIED' | 'CANCELLED'; actor: string; reason: string | null }): Promise<void> {
      await db.transaction(async (trx) => {
        const moved = await moveOperation(trx, {
          ...args,
          columns: args.to === 'DENIED' ? { deny_reason: args.reason } : { cancel_reason: args.reason },
          data: { reason: args.reason, actor: args.actor },
        });
        if (!moved) return;
        const now = new Date();
        const ledger = new PayablesLedger(trx, moved.originator_id);
        // Payables before titles, as creation takes them: cancelling the titles locks the exposure counters.
        await ledger.lockNetted(args.operationId);
        await trx('titles').where({ operation_id: args.operationId }).update({ status: 'CANCELLED', updated_at: now });
        await trx('stock_items').where({ operation_id: args.operationId, status: 'ANTICIPATED' })
          .update({ status: 'IN_STOCK', operation_id: null, updated_at: now });
        await ledger.reverseNetting(args.operationId);
      });
    },
  };
}
