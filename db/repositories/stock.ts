import type { Knex } from 'knex';
import { fromColumns, toColumns } from './columns';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

/** DESIGN.md §5: IN_STOCK → ANTICIPATED (in an operation) and back; CANCELLED by the cancel route. */
export const STOCK_STATUSES = ['IN_STOCK', 'ANTICIPATED', 'CANCELLED'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

/** The columns a registration or a change writes; the rest belong to the lifecycle. */
export interface StockItemColumns {
  id: string;
  assignorId: string;
  payerId: string;
  externalId: string;
  identifier: string | null;
  backingType: string;
  nfeNumber: string | null;
  nfeSerie: string | null;
  nfeKey: string | null;
  nfeIssueDate: string | null;
  nfeTotalValue: string | null;
  grossFutureValue: string | null;
  grossFutureValueDeductions: string | null;
  netFutureValue: string;
  dueDate: string;
  preAuthorized: boolean;
  /** What identifies the receivable as an invoice (domain/receivable-identity.ts); null: not guarded. */
  receivableFingerprint: string | null;
}

export interface StockItemRow extends StockItemColumns {
  originatorId: string;
  status: StockStatus;
  operationId: string | null;
  sourceOperationId: string | null;
  payerDocument: string;
  payerName: string;
  createdAt: Date;
  updatedAt: Date;
}

export type StockValueChange = Partial<Pick<StockItemColumns, 'grossFutureValue' | 'grossFutureValueDeductions' | 'netFutureValue' | 'preAuthorized'
  | 'nfeNumber' | 'nfeSerie' | 'nfeKey' | 'nfeIssueDate' | 'nfeTotalValue' | 'receivableFingerprint'>>;

/** Items carry their payer's document and name. */
const withPayer = (query: Knex.QueryBuilder) => query.join('payers', 'payers.id', 'stock_items.payer_id')
  .select('stock_items.*', 'payers.document as payer_document', 'payers.name as payer_name');

export class StockRepository extends TenantScopedRepository {
  /** Items with their payer's document and name, which the item itself does not repeat. */
  private items(): Knex.QueryBuilder {
    return withPayer(this.scoped('stock_items'));
  }

  async insert(rows: readonly StockItemColumns[]): Promise<void> {
    await this.insertOwned('stock_items', rows.map((row) => toColumns({ ...row, status: 'IN_STOCK' })));
  }

  /** With `lock`, the item rows are held until commit, so a concurrent change or anticipation waits. */
  async byId(id: string, lock = false): Promise<StockItemRow | undefined> {
    const query = this.items().where('stock_items.id', id).first();
    const row = await (lock ? query.forUpdate('stock_items') : query);
    return row ? fromColumns<StockItemRow>(row) : undefined;
  }

  /** Locked in id order, so two requests sharing items never deadlock. */
  async byIds(ids: readonly string[], lock = false): Promise<StockItemRow[]> {
    const query = this.items().whereIn('stock_items.id', [...ids]).orderBy('stock_items.id');
    const rows: Record<string, unknown>[] = await (lock ? query.forUpdate('stock_items') : query);
    return rows.map((row) => fromColumns<StockItemRow>(row));
  }

  async list(limit: number, offset: number, status?: string): Promise<{ items: StockItemRow[]; total: number }> {
    const byStatus = (query: Knex.QueryBuilder) => (status ? query.where('stock_items.status', status) : query);
    const { items, total } = await paged<Record<string, unknown>>(() => byStatus(this.scoped('stock_items')), (query) => newestFirst('stock_items')(withPayer(query)), limit, offset);
    return { items: items.map((row) => fromColumns<StockItemRow>(row)), total };
  }

  async update(id: string, change: StockValueChange & { status?: StockStatus }): Promise<StockItemRow> {
    await this.scoped('stock_items').where({ id }).update({ ...toColumns(change), updated_at: this.db.fn.now() });
    return (await this.byId(id))!;
  }
}
