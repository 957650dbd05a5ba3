import type { Knex } from 'knex';
import type { OperationRow } from './operations';
import { paged } from './pagination';

export interface QueueFilters {
  originatorId?: string;
  assignorDocument?: string;
  minAmount?: string;
  maxAmount?: string;
  createdFrom?: string;
  createdTo?: string;
}

export interface QueueItem extends OperationRow {
  originator_name: string;
  assignor_name: string;
  assignor_document: string;
}

/**
 * The backoffice sees across tenants by design (DESIGN.md §8: staff are cross-tenant). This is
 * the one repository that is not tenant-scoped; only backoffice routes use it.
 */
export class BackofficeRepository {
  constructor(private readonly db: Knex) {}

  private queue(filters: QueueFilters) {
    const query = this.db('operations')
      .join('originators', 'originators.id', 'operations.originator_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .where('operations.lifecycle_status', 'WAITING_APPROVAL');
    if (filters.originatorId) query.where('operations.originator_id', filters.originatorId);
    if (filters.assignorDocument) query.where('assignors.document', filters.assignorDocument);
    if (filters.minAmount) query.where('operations.opr_requested_net_future_value', '>=', filters.minAmount);
    if (filters.maxAmount) query.where('operations.opr_requested_net_future_value', '<=', filters.maxAmount);
    if (filters.createdFrom) query.where('operations.created_at', '>=', filters.createdFrom);
    if (filters.createdTo) query.where('operations.created_at', '<=', filters.createdTo);
    return query;
  }

  /** Oldest first: a queue is worked from its head. */
  async approvalQueue(filters: QueueFilters, limit: number, offset: number): Promise<{ items: QueueItem[]; total: number }> {
    return paged(() => this.queue(filters), (query) => query
      .select('operations.*', 'originators.name as originator_name', 'assignors.name as assignor_name', 'assignors.document as assignor_document')
      .orderBy('operations.created_at').orderBy('operations.id'), limit, offset);
  }

  async operation(id: string): Promise<OperationRow | undefined> {
    return this.db('operations').where({ id }).first();
  }
}
