import type { Knex } from 'knex';
import { fromColumns, toColumns } from './columns';
import type { OperationRow, TitleRow } from './operations';
import type { StockItemColumns, StockItemRow } from './stock';

/** What creation writes of an operation; the reasons and timestamps come later or from the database. */
export type NewOperationRow = Omit<OperationRow, 'denyReason' | 'cancelReason' | 'cancellationReason' | 'createdAt' | 'updatedAt' | 'testClockId'>
  & Partial<Pick<OperationRow, 'createdAt' | 'updatedAt' | 'testClockId'>>;

/** What a new title has not yet: a PIX charge (issued at PAID) and an act at the escriturador (before the PIX). */
type NotYetFields = 'pixTxid' | 'pixStatus' | 'pixBrCode' | 'pixExpiresAt' | 'registration';
/** A new title is in no dispute: only the re-check after payout sets these. */
type DisputeFields = 'disputeReason' | 'disputeCstat' | 'disputeXmotivo' | 'disputePayerEvent' | 'disputedAt';

/** What creation writes of a title: its own columns, not its payer's, plus the owners and the claim it holds. */
export type NewTitleRow = Omit<TitleRow, 'payerDocument' | 'payerName' | 'graceDays' | 'createdAt' | 'updatedAt' | NotYetFields | DisputeFields>
  & Partial<Pick<TitleRow, 'createdAt' | 'updatedAt'>>
  & { originatorId: string; assignorId: string; receivableFingerprint: string | null };

/** A partial anticipation's remainder: a stock item as the stock repository types it. */
export type RemainderRow = Omit<StockItemColumns, 'grossFutureValue' | 'grossFutureValueDeductions'>
  & Pick<StockItemRow, 'originatorId' | 'status' | 'sourceOperationId'> & Partial<Pick<StockItemRow, 'createdAt' | 'updatedAt'>>;

/** The inserts of an operation's creation, inside the creation's transaction (api/operations/creation/write.ts). */
export class OperationWritesRepository {
  constructor(private readonly trx: Knex) {}

  /** Whether the assignor already has a contract sent or signed: the next one is an addendum. */
  async hasContract(assignorId: string): Promise<boolean> {
    return Boolean(await this.trx('contracts').where({ assignor_id: assignorId }).whereIn('status', ['SENT', 'SIGNED']).first('id'));
  }

  async insertOperation(operation: NewOperationRow): Promise<OperationRow> {
    const columns = toColumns({ ...operation, reviewReason: operation.reviewReason === null ? null : JSON.stringify(operation.reviewReason) });
    const [row] = await this.trx('operations').insert(columns).returning('*');
    return fromColumns<OperationRow>(row);
  }

  /** The titles, without the payer's columns a read joins in; none has a PIX charge or an act yet. */
  async insertTitles(titles: NewTitleRow[]): Promise<Omit<TitleRow, 'payerDocument' | 'payerName' | 'graceDays'>[]> {
    const rows = await this.trx('titles').insert(titles.map(toColumns)).returning('*');
    return rows.map((row: Record<string, unknown>) => ({
      ...fromColumns<Omit<TitleRow, 'payerDocument' | 'payerName' | 'graceDays' | NotYetFields>>(row), pixTxid: null, pixStatus: null, pixBrCode: null, pixExpiresAt: null, registration: null,
    }));
  }

  async insertStockItems(rows: RemainderRow[]): Promise<void> {
    if (rows.length > 0) await this.trx('stock_items').insert(rows.map(toColumns));
  }

  /** The stock items the operation consumes, changed at `at` (a test clock's time, or now). */
  async anticipate(stockItemIds: string[], operationId: string, at: Date): Promise<void> {
    if (stockItemIds.length === 0) return;
    await this.trx('stock_items').whereIn('id', stockItemIds).update({ status: 'ANTICIPATED', operation_id: operationId, updated_at: at });
  }
}
