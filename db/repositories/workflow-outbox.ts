import type { Knex } from 'knex';
import { fromColumns, toColumns } from './columns';

/** An outbox entry: a workflow start waiting to be made (`args` and `search_attributes` are jsonb). */
export interface OutboxRow {
  id: string;
  workflowType: string;
  workflowId: string;
  args: unknown[];
  searchAttributes: { originatorId: string; lifecycleStatus: string; displayNumber: string; environment: string };
  /** The trace of the request that wrote the entry, which the start continues (null with tracing off). */
  traceparent: string | null;
}

const COLUMNS = ['id', 'workflow_type', 'workflow_id', 'args', 'search_attributes', 'traceparent'];

/** The workflow outbox (DESIGN.md §4): entries written with their business record, marked once started. */
export class WorkflowOutboxRepository {
  constructor(private readonly db: Knex) {}

  async insert(row: OutboxRow, originatorId: string): Promise<void> {
    await this.db('workflow_outbox').insert(toColumns({
      ...row, originatorId, args: JSON.stringify(row.args), searchAttributes: JSON.stringify(row.searchAttributes),
    }));
  }

  async pendingFor(workflowId: string): Promise<OutboxRow | undefined> {
    const row = await this.db('workflow_outbox').where({ workflow_id: workflowId }).whereNull('started_at').first(COLUMNS);
    return row ? fromColumns<OutboxRow>(row) : undefined;
  }

  /** Oldest first, those written more than `olderThanMs` ago. */
  async pendingOlderThan(olderThanMs: number, limit: number): Promise<OutboxRow[]> {
    const rows = await this.db('workflow_outbox').select(COLUMNS)
      .whereNull('started_at').where('created_at', '<', new Date(Date.now() - olderThanMs)).orderBy('created_at').limit(limit);
    return rows.map((row: Record<string, unknown>) => fromColumns<OutboxRow>(row));
  }

  async started(id: string): Promise<void> {
    await this.db('workflow_outbox').where({ id }).whereNull('started_at').update({ started_at: new Date() });
  }

  async failed(id: string, error: string): Promise<void> {
    await this.db('workflow_outbox').where({ id }).update({ attempts: this.db.raw('attempts + 1'), last_error: error });
  }
}
