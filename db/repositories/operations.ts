import type { Knex } from 'knex';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface OperationRow {
  id: string;
  originator_id: string;
  display_number: string;
  assignor_id: string;
  policy_id: string | null;
  product_id: string | null;
  channel: 'direct' | 'stock';
  lifecycle_status: string;
  needs_backoffice_approval: boolean;
  embedded_signature: boolean;
  has_partial_anticipations: boolean;
  fee_hierarchy: string;
  disbursement_method: string | null;
  opr_gross_future_value: string;
  opr_net_future_value: string;
  opr_requested_net_future_value: string;
  opr_present_value_discount: string;
  opr_net_liquid_value: string;
  other_debt_discounts: string;
  opr_net_present_liquid_value: string;
  average_days_in_advance: number;
  weighted_avg_days: string;
  floating_days: number;
  cet_monthly_pct: string | null;
  cet_annual_pct: string | null;
  contract_type: string;
  signers_count: number;
  deny_reason: string | null;
  cancel_reason: string | null;
  approved_at: Date | null;
  /** Why it waits for a human whatever its amount (double assignment), or null. */
  review_reason: { code: string; message: string; external_ids: string[] } | null;
  created_at: Date;
  updated_at: Date;
}

export interface TitleRow {
  id: string;
  operation_id: string;
  payer_id: string;
  stock_item_id: string | null;
  external_id: string;
  identifier: string | null;
  backing_type: string;
  status: string;
  gross_future_value: string;
  net_future_value: string;
  requested_net_future_value: string;
  present_value_discount: string;
  net_present_liquid_value: string;
  outstanding_balance: string;
  paid_amount: string;
  fixed_discount_brl: string | null;
  due_date: string;
  qty_days_advanced: number;
  fee_source: string;
  monthly_rate_pct: string | null;
  discount_pct: string | null;
  is_partial: boolean;
  payer_document: string;
  payer_name: string;
  created_at: Date;
  updated_at: Date;
}

export interface TitleFilters {
  status?: string;
  operationId?: string;
  payerDocument?: string;
  dueFrom?: string;
  dueTo?: string;
}

export class OperationsRepository extends TenantScopedRepository {
  // The reads integrators poll are named prepared statements: parsed and planned once per connection.
  async byId(id: string): Promise<OperationRow | undefined> {
    return this.scoped('operations').where({ id }).first().options({ name: 'operation_by_id' });
  }

  async list(limit: number, offset: number, lifecycleStatus?: string): Promise<{ items: OperationRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('operations');
      return lifecycleStatus ? query.where({ lifecycle_status: lifecycleStatus }) : query;
    };
    return paged(filtered, newestFirst(), limit, offset);
  }

  private titles() {
    return this.scoped('titles').join('payers', 'payers.id', 'titles.payer_id')
      .select('titles.*', 'payers.document as payer_document', 'payers.name as payer_name');
  }

  async titlesOf(operationIds: readonly string[]): Promise<TitleRow[]> {
    return this.titles().whereRaw('titles.operation_id = any(?::uuid[])', [[...operationIds]]).orderBy('titles.id').options({ name: 'titles_of_operations' });
  }

  async titleCount(operationId: string): Promise<number> {
    const [{ count }] = await this.scoped('titles').where({ operation_id: operationId }).count<{ count: string }[]>({ count: '*' });
    return Number(count);
  }

  async titleById(id: string): Promise<TitleRow | undefined> {
    return this.titles().where('titles.id', id).first();
  }

  async listTitles(filters: TitleFilters, limit: number, offset: number): Promise<{ items: TitleRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('titles').join('payers', 'payers.id', 'titles.payer_id');
      if (filters.status) query.where('titles.status', filters.status);
      if (filters.operationId) query.where('titles.operation_id', filters.operationId);
      if (filters.payerDocument) query.where('payers.document', filters.payerDocument);
      if (filters.dueFrom) query.where('titles.due_date', '>=', filters.dueFrom);
      if (filters.dueTo) query.where('titles.due_date', '<=', filters.dueTo);
      return query;
    };
    const withPayer = (query: Knex.QueryBuilder) => newestFirst('titles')(query.select('titles.*', 'payers.document as payer_document', 'payers.name as payer_name'));
    return paged(filtered, withPayer, limit, offset);
  }
}
