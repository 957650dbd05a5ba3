import type { Knex } from 'knex';

/** An outbox entry as stored (`args` and `search_attributes` are jsonb). */
export interface OutboxRow {
  id: string;
  workflow_type: string;
  workflow_id: string;
  args: unknown[];
  search_attributes: { originatorId: string; lifecycleStatus: string; displayNumber: string; environment: string };
}

/** The workflow outbox (DESIGN.md §4): entries written with their business record, marked once started. */
export class WorkflowOutboxRepository {
  constructor(private readonly db: Knex) {}

  async insert(row: OutboxRow, originatorId: string): Promise<void> {
    await this.db('workflow_outbox').insert({
      ...row, originator_id: originatorId, args: JSON.stringify(row.args), search_attributes: JSON.stringify(row.search_attributes),
    });
  }

  async pendingFor(workflowId: string): Promise<OutboxRow | undefined> {
    return this.db('workflow_outbox').where({ workflow_id: workflowId }).whereNull('started_at').first();
  }

  /** Oldest first, those written more than `olderThanMs` ago. */
  async pendingOlderThan(olderThanMs: number, limit: number): Promise<OutboxRow[]> {
    return this.db('workflow_outbox').whereNull('started_at').where('created_at', '<', new Date(Date.now() - olderThanMs)).orderBy('created_at').limit(limit);
  }

  async started(id: string): Promise<void> {
    await this.db('workflow_outbox').where({ id }).whereNull('started_at').update({ started_at: new Date() });
  }

  async failed(id: string, error: string): Promise<void> {
    await this.db('workflow_outbox').where({ id }).update({ attempts: this.db.raw('attempts + 1'), last_error: error });
  }
}
