import type { Knex } from 'knex';
import { OperationApprovalsRepository } from '../../db/repositories/operation-approvals';

export interface ApprovalProgress {
  approvals_required: 1 | 2;
  approvals: { user_id: string; email: string; approved_at: string }[];
}

/** Four-eyes progress of each operation: how many approvals it needs and who gave them. */
export async function approvalProgress(db: Knex, operations: readonly { id: string; approvalsRequired: 1 | 2 }[]): Promise<Map<string, ApprovalProgress>> {
  // Approvals are recorded only for operations needing two: the others need no query.
  const approvals = await new OperationApprovalsRepository(db).of(operations.filter((op) => op.approvalsRequired > 1).map((op) => op.id));
  return new Map(operations.map((op) => [op.id, {
    approvals_required: op.approvalsRequired,
    approvals: (approvals.get(op.id) ?? []).map((a) => ({ user_id: a.userId, email: a.email, approved_at: a.approvedAt.toISOString() })),
  }]));
}
