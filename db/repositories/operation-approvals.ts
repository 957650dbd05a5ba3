import type { Knex } from 'knex';

export interface ApprovalRow {
  operationId: string;
  userId: string;
  email: string;
  approvedAt: Date;
}

/**
 * Four-eyes approvals as the operation's workflow records them. Staff read them across
 * originators, so this repository is not tenant-scoped; the originator is copied from the operation.
 */
export class OperationApprovalsRepository {
  constructor(private readonly db: Knex) {}

  /** Idempotent: a retried write of the same approver's approval changes nothing (and answers false). */
  async record(approval: Omit<ApprovalRow, 'approvedAt'> & { approvedAt: string }): Promise<boolean> {
    const inserted = await this.db.raw(`insert into operation_approvals (operation_id, originator_id, user_id, email, approved_at)
      select id, originator_id, ?, ?, ? from operations where id = ?
      on conflict (operation_id, user_id) do nothing returning operation_id`, [approval.userId, approval.email, approval.approvedAt, approval.operationId]);
    return inserted.rows.length > 0;
  }

  /** Each operation's approvals, oldest first. */
  async of(operationIds: readonly string[]): Promise<Map<string, ApprovalRow[]>> {
    if (operationIds.length === 0) return new Map();
    const rows = await this.db('operation_approvals')
      .select({ operationId: 'operation_id', userId: 'user_id', email: 'email', approvedAt: 'approved_at' })
      .whereIn('operation_id', [...operationIds]).orderBy('approved_at');
    const byOperation = new Map<string, ApprovalRow[]>(operationIds.map((id) => [id, []]));
    for (const row of rows as ApprovalRow[]) byOperation.get(row.operationId)!.push(row);
    return byOperation;
  }
}
