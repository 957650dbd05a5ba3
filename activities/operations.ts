import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { AuditedRequest } from '../domain/audit-chain';
import { eventId, EventType } from '../domain/events';
import { EVENT_ON_ENTRY, REENTERED } from '../domain/operation-events';
import { AuditEventsRepository } from '../db/repositories/audit-events';
import { LifecycleStatus, readModelMove } from '../domain/operation-lifecycle';
import { recordEvent } from '../db/repositories/events';
import { LifecycleOperation, MoveColumns, OperationLifecycleRepository } from '../db/repositories/operation-lifecycle';
import { OperationApprovalsRepository } from '../db/repositories/operation-approvals';
import { PayablesLedger } from '../db/repositories/payables-ledger';
import { OperationBooks } from '../db/repositories/ledger-operation-books';
import { afterCommit, operationTransitions } from '../platform/telemetry/metrics';

export interface OperationActivityDeps {
  db: Knex;
}

function baseData(op: LifecycleOperation): Record<string, unknown> {
  return { operation_id: op.id, display_number: op.displayNumber, originator_id: op.originatorId };
}

function found(op: LifecycleOperation | undefined, operationId: string): LifecycleOperation {
  if (!op) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
  return op;
}

/**
 * A staff decision's audit row, in the transaction of the change it records: both commit or
 * neither. `before` and `after` are what the system saw and did; the request's fields stay under `request`.
 */
async function auditDecision(trx: Knex, audit: AuditedRequest | undefined, operationId: string, before: Record<string, unknown>, after: Record<string, unknown>): Promise<void> {
  if (audit) await new AuditEventsRepository(trx).appendFor(audit, { target: { type: 'operation', id: operationId }, before, after });
}

/**
 * Moves the read model to `to` from a state the table (domain/operation-lifecycle.ts) allows it
 * from, and records the event of the move, and the staff decision's audit row when a person asked
 * for it, in one transaction. A retry after a commit finds the row already in `to`, or past it,
 * and changes nothing (`readModelMove`), so the decision has exactly one row.
 */
export async function moveOperation(db: Knex, args: { operationId: string; workflowId: string; to: LifecycleStatus; columns?: MoveColumns; data?: Record<string, unknown>; at?: string; audit?: AuditedRequest }): Promise<LifecycleOperation | null> {
  const moved = await db.transaction(async (trx) => {
    const operations = new OperationLifecycleRepository(trx);
    const op = found(await operations.lock(args.operationId), args.operationId);
    const decision = readModelMove(op.lifecycleStatus, args.to);
    if (decision === 'done') return null;
    if (decision === 'refuse') {
      throw ApplicationFailure.nonRetryable(`cannot move ${op.lifecycleStatus} to ${args.to}`, 'invalid_transition');
    }
    const now = stampOf(args);
    const updated = await operations.move(op.id, args.to, args.columns ?? {}, now);
    // The PIX is about to be ordered: the titles are bought now, not at creation.
    if (args.to === 'DISBURSING') await new OperationBooks(trx, op.originatorId).acquired(op.id, now);
    const type = EVENT_ON_ENTRY[args.to];
    if (type) {
      const occurrence = REENTERED.includes(args.to) ? op.updatedAt.toISOString() : 0;
      await recordEvent(trx, {
        eventId: eventId(args.workflowId, type, occurrence), originatorId: op.originatorId, eventType: type, occurredAt: now,
        data: { ...baseData(updated), ...args.data },
      });
    }
    await auditDecision(trx, args.audit, op.id, { lifecycle_status: op.lifecycleStatus }, { lifecycle_status: updated.lifecycleStatus });
    return updated;
  });
  // Counted when the caller's transaction, if any, commits: a rolled-back move is retried and counted then.
  if (moved) afterCommit(db, () => operationTransitions.inc({ to: args.to }));
  return moved;
}

/** The moment a write stamps: a test clock's time when the workflow gives one, else now. */
export const stampOf = ({ at }: { at?: string }): Date => (at ? new Date(at) : new Date());

function moveData(args: { to: LifecycleStatus; decidedBy?: string; errorCode?: string }, at: Date): Record<string, unknown> {
  if (args.to === 'PRE_APPROVED') return { lifecycle_status: 'PRE_APPROVED', approved_at: at.toISOString(), approved_by: args.decidedBy ?? null };
  if (args.to === 'SETTLED') return { settled_at: at.toISOString() };
  if (args.to === 'CONTRACT_ERROR') return { error_code: args.errorCode ?? null };
  if (args.to === 'DISBURSEMENT_FAILED') return { reason: args.errorCode ?? null };
  return {};
}

export function createOperationActivities({ db }: OperationActivityDeps) {
  return {
    /** `operation.created`, then `operation.approved` (born approved) or `operation.approval_requested`. */
    async recordOperationCreated({ operationId, workflowId }: { operationId: string; workflowId: string }): Promise<void> {
      const op = found(await new OperationLifecycleRepository(db).byId(operationId), operationId);
      const amounts = {
        opr_gross_future_value: op.grossFutureValue,
        requested_net_future_value: op.requestedNetFutureValue,
        opr_present_value_discount: op.presentValueDiscount,
        opr_net_present_liquid_value: op.netPresentLiquidValue,
      };
      const born = op.lifecycleStatus;
      const events: [EventType, Record<string, unknown>][] = [['operation.created', { ...baseData(op), lifecycle_status: born, ...amounts }]];
      if (born === 'APPROVED_DIRECT') {
        events.push(['operation.approved', { ...baseData(op), lifecycle_status: born, approved_at: (op.approvedAt ?? op.createdAt).toISOString() }]);
      } else {
        events.push(['operation.approval_requested', { ...baseData(op), requested_net_future_value: op.requestedNetFutureValue }]);
      }
      await db.transaction(async (trx) => {
        for (const [type, data] of events) {
          await recordEvent(trx, { eventId: eventId(workflowId, type), originatorId: op.originatorId, eventType: type, data, occurredAt: op.createdAt });
        }
      });
    },

    async transitionOperation(args: { operationId: string; workflowId: string; to: LifecycleStatus; decidedBy?: string; note?: string | null; errorCode?: string; at?: string; audit?: AuditedRequest }): Promise<void> {
      const approvedAt = stampOf(args);
      await moveOperation(db, {
        ...args,
        columns: args.to === 'PRE_APPROVED' ? { approvedAt } : {},
        data: moveData(args, approvedAt),
      });
    },

    /** One approval of a four-eyes pair, as the workflow took it, with its audit row when it carries one. */
    async recordApproval({ audit, ...approval }: { operationId: string; userId: string; email: string; approvedAt: string; audit?: AuditedRequest }): Promise<void> {
      await db.transaction(async (trx) => {
        const approvals = new OperationApprovalsRepository(trx);
        if (!(await approvals.record(approval)) || !audit) return;
        const op = found(await new OperationLifecycleRepository(trx).byId(approval.operationId), approval.operationId);
        const given = (await approvals.of([op.id])).get(op.id)!.length;
        await auditDecision(trx, audit, op.id, { lifecycle_status: op.lifecycleStatus, approvals: given - 1 }, { lifecycle_status: op.lifecycleStatus, approvals: given });
      });
    },

    /**
     * Denial or cancellation: the operation ends, its titles are cancelled (releasing exposure)
     * and the stock items it consumed return to IN_STOCK; debt it netted is owed again.
     */
    /** `cancellationReason`: why a cancellation happened, as a code; a cancel that was asked for (and any recorded before the code existed) is `requested`. */
    async releaseOperation(args: {
      operationId: string; workflowId: string; to: 'DENIED' | 'CANCELLED'; actor: string; reason: string | null; cancellationReason?: string; at?: string; audit?: AuditedRequest;
    }): Promise<void> {
      const cancellationReason = args.cancellationReason ?? 'requested';
      await db.transaction(async (trx) => {
        const moved = await moveOperation(trx, {
          ...args,
          columns: args.to === 'DENIED' ? { denyReason: args.reason } : { cancelReason: args.reason, cancellationReason },
          data: { reason: args.reason, actor: args.actor, ...(args.to === 'CANCELLED' ? { cancellation_reason: cancellationReason } : {}) },
        });
        if (!moved) return;
        const now = stampOf(args);
        const ledger = new PayablesLedger(trx, moved.originatorId);
        // Payables before titles, as creation takes them: cancelling the titles locks the exposure counters.
        await ledger.lockNetted(args.operationId);
        await new OperationLifecycleRepository(trx).release(args.operationId, now);
        await ledger.reverseNetting(args.operationId);
        await new OperationBooks(trx, moved.originatorId).released(args.operationId, now);
      });
    },
  };
}
