import type { Knex } from 'knex';
import type { TitleStatus } from '../../domain/title-rules';

/** A title as its operation's workflow tracks it from PAID. */
export interface TitleRecord {
  id: string;
  originatorId: string;
  operationId: string;
  assignorId: string;
  externalId: string;
  status: TitleStatus;
  outstandingBalance: string;
  paidAmount: string;
  dueDate: string;
  /** The grace days of its operation's policy (null without a policy). */
  graceDays: number | null;
}

interface TitleRow {
  id: string;
  originator_id: string;
  operation_id: string;
  assignor_id: string;
  external_id: string;
  status: TitleStatus;
  outstanding_balance: string;
  paid_amount: string;
  due_date: string;
  grace_days?: number | null;
}

const toTitle = (row: TitleRow): TitleRecord => ({
  id: row.id, originatorId: row.originator_id, operationId: row.operation_id, assignorId: row.assignor_id, externalId: row.external_id,
  status: row.status, outstandingBalance: row.outstanding_balance, paidAmount: row.paid_amount, dueDate: row.due_date,
  graceDays: row.grace_days === undefined || row.grace_days === null ? null : Number(row.grace_days),
});

/** Titles across originators, addressed by id or by operation (the workflow knows no tenant). */
export class TrackedTitlesRepository {
  constructor(private readonly db: Knex) {}

  /** Every title of the operation not cancelled, with its policy's grace days, in id order. */
  async ofOperation(operationId: string): Promise<TitleRecord[]> {
    const rows = await this.db('titles').join('operations', 'operations.id', 'titles.operation_id')
      .leftJoin('policies', 'policies.id', 'operations.policy_id').select('titles.*', 'policies.grace_days')
      .where('titles.operation_id', operationId).whereNot('titles.status', 'CANCELLED').orderBy('titles.id');
    return rows.map(toTitle);
  }

  /** Within a transaction: the title locked until it commits. */
  async lock(id: string): Promise<TitleRecord | undefined> {
    const row = await this.db('titles').where({ id }).forUpdate().first();
    return row && toTitle(row);
  }

  async markOverdue(id: string, at: Date): Promise<void> {
    await this.db('titles').where({ id }).update({ status: 'OVERDUE', updated_at: at });
  }

}
