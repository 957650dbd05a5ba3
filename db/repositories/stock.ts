import type { Knex } from 'knex';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

/** DESIGN.md §5: IN_STOCK → ANTICIPATED (in an operation) and back; CANCELLED by the cancel route. */
export const STOCK_STATUSES = ['IN_STOCK', 'ANTICIPATED', 'CANCELLED'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

/** The columns a registration or a change writes; the rest belong to the lifecycle. */
export interface StockItemColumns {
  id: string;
  assignor_id: string;
  payer_id: string;
  external_id: string;
  identifier: string | null;
  backing_type: string;
  nfe_number: string | null;
  nfe_serie: string | null;
  nfe_key: string | null;
  nfe_issue_date: string | null;
  nfe_total_value: string | null;
  gross_future_value: string | null;
  gross_future_value_deductions: string | null;
  net_future_value: string;
  due_date: string;
  pre_authorized: boolean;
  /** What identifies the receivable as an invoice (domain/receivable-identity.ts); null: not guarded. */
  receivable_fingerprint: string | null;
}

export interface StockItemRow extends StockItemColumns {
  originator_id: string;
  status: StockStatus;
  operation_id: string | null;
  source_operation_id: string | null;
  payer_document: string;
  payer_name: string;
  created_at: Date;
  updated_at: Date;
}

export type StockValueChange = Partial<Pick<StockItemColumns, 'gross_future_value' | 'gross_future_value_deductions' | 'net_future_value' | 'pre_authorized'
  | 'nfe_number' | 'nfe_serie' | 'nfe_key' | 'nfe_issue_date' | 'nfe_total_value' | 'receivable_fingerprint'>>;

/** Items carry their payer's document and name. */
const withPayer = (query: Knex.QueryBuilder) => query.join('payers', 'payers.id', 'stock_items.payer_id')
  .select('stock_items.*', 'payers.document as payer_document', 'payers.name as payer_name');

export class StockRepository extends TenantScopedRepository {
  /** Items with their payer's document and name, which the item itself does not repeat. */
  private items(): Knex.QueryBuilder {
    return withPayer(this.scoped('stock_items'));
  }

  async insert(rows: readonly StockItemColumns[]): Promise<void> {
    await this.insertOwned('stock_items', rows.map((row) => ({ ...row, status: 'IN_STOCK' })));
  }

  /** With `lock`, the item rows are held until commit, so a concurrent change or anticipation waits. */
  async byId(id: string, lock = false): Promise<StockItemRow | undefined> {
    const query = this.items().where('stock_items.id', id).first();
    return lock ? query.forUpdate('stock_items') : query;
  }

  /** Locked in id order, so two requests sharing items never deadlock. */
  async byIds(ids: readonly string[], lock = false): Promise<StockItemRow[]> {
    const query = this.items().whereIn('stock_items.id', [...ids]).orderBy('stock_items.id');
    return lock ? query.forUpdate('stock_items') : query;
  }

  async list(limit: number, offset: number, status?: string): Promise<{ items: StockItemRow[]; total: number }> {
    const byStatus = (query: Knex.QueryBuilder) => (status ? query.where('stock_items.status', status) : query);
    return paged(() => byStatus(this.scoped('stock_items')), (query) => newestFirst('stock_items')(withPayer(query)), limit, offset);
  }

  async update(id: string, change: StockValueChange & { status?: StockStatus }): Promise<StockItemRow> {
    await this.scoped('stock_items').where({ id }).update({ ...change, updated_at: this.db.fn.now() });
    return (await this.byId(id))!;
  }
}
