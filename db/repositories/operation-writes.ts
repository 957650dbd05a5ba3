import type { Knex } from 'knex';
import type { OperationRow, TitleRow } from './operations';

type NewRow = Record<string, unknown>;

/** The inserts of an operation's creation, inside the creation's transaction (api/operations/write-operation.ts). */
export class OperationWritesRepository {
  constructor(private readonly trx: Knex) {}

  /** Whether the assignor already has a contract sent or signed: the next one is an addendum. */
  async hasContract(assignorId: string): Promise<boolean> {
    return Boolean(await this.trx('contracts').where({ assignor_id: assignorId }).whereIn('status', ['SENT', 'SIGNED']).first('id'));
  }

  async insertOperation(row: NewRow): Promise<OperationRow> {
    const [operation] = await this.trx('operations').insert(row).returning('*');
    return operation;
  }

  /** The titles, without the payer's columns a read joins in. */
  async insertTitles(rows: NewRow[]): Promise<Omit<TitleRow, 'payer_document' | 'payer_name'>[]> {
    return this.trx('titles').insert(rows).returning('*');
  }

  async insertStockItems(rows: NewRow[]): Promise<void> {
    if (rows.length > 0) await this.trx('stock_items').insert(rows);
  }

  /** The stock items the operation consumes. */
  async anticipate(stockItemIds: string[], operationId: string): Promise<void> {
    if (stockItemIds.length === 0) return;
    await this.trx('stock_items').whereIn('id', stockItemIds).update({ status: 'ANTICIPATED', operation_id: operationId, updated_at: new Date() });
  }
}
