import { v7 as uuidv7 } from 'uuid';
import type { Money } from '../../domain/money';
import { fromColumns } from './columns';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';
import { recordPayableEvent } from './record-events';

export type PayableStatus = 'OPEN' | 'PARTIALLY_PAID' | 'PAID' | 'WRITTEN_OFF';
export type PayableOrigin = 'TITLE_OVERDUE' | 'MANUAL';
/** What the assignor still owes: the debt a payment, a credit or an operation's netting can reduce. */
export const OPEN_PAYABLE_STATUSES: readonly PayableStatus[] = ['OPEN', 'PARTIALLY_PAID'];

export interface PayableRow {
  id: string;
  originatorId: string;
  assignorId: string;
  origin: PayableOrigin;
  originTitleId: string | null;
  reason: string | null;
  amount: string;
  paidAmount: string;
  remaining: string;
  writtenOffAmount: string;
  status: PayableStatus;
  dueDate: string;
  writeOffReason: string | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewPayable {
  assignorId: string;
  origin: PayableOrigin;
  originTitleId: string | null;
  reason: string | null;
  amount: Money;
  dueDate: string;
  /** When it opened: a test clock's time; now when absent. */
  at?: Date;
}

export interface PayableFilters {
  assignorId?: string;
  status?: string;
  originTitleId?: string;
  dueFrom?: string;
  dueTo?: string;
}

export const payableOf = (row: Record<string, unknown> | undefined) => (row ? fromColumns<PayableRow>(row) : undefined);

/** Assignor payables as records; every change of their balance goes through `PayablesLedger`. */
export class PayablesRepository extends TenantScopedRepository {
  async byId(id: string, lock = false): Promise<PayableRow | undefined> {
    const query = this.scoped('assignor_payables').where({ id }).first();
    return payableOf(await (lock ? query.forUpdate() : query));
  }

  /** A new debt, and its `payable.opened` event in the same transaction. */
  async open(input: NewPayable): Promise<PayableRow> {
    const amount = input.amount.toString();
    const [row] = await this.insertOwned('assignor_payables', {
      id: uuidv7(), assignor_id: input.assignorId, origin: input.origin, origin_title_id: input.originTitleId, reason: input.reason,
      amount, paid_amount: '0.00', remaining: amount, written_off_amount: '0.00', status: 'OPEN', due_date: input.dueDate,
      ...(input.at ? { created_at: input.at, updated_at: input.at } : {}),
    }).returning('*');
    const payable = payableOf(row)!;
    await recordPayableEvent(this.db, payable, 'payable.opened');
    return payable;
  }

  /** The payable an overdue title opened, if it has. */
  async repurchaseOf(titleId: string): Promise<PayableRow | undefined> {
    return payableOf(await this.scoped('assignor_payables').where({ origin: 'TITLE_OVERDUE', origin_title_id: titleId }).first());
  }

  /** Oldest first, the order in which credits and netting settle them; locked when about to be debited. */
  async openOf(assignorId: string, lock: boolean): Promise<PayableRow[]> {
    const query = this.scoped('assignor_payables').where({ assignor_id: assignorId }).whereIn('status', [...OPEN_PAYABLE_STATUSES])
      .orderBy('created_at').orderBy('id');
    const rows: Record<string, unknown>[] = await (lock ? query.forUpdate() : query);
    return rows.map((row) => payableOf(row)!);
  }

  async list(filters: PayableFilters, limit: number, offset: number): Promise<{ items: PayableRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('assignor_payables');
      if (filters.assignorId) query.where('assignor_id', filters.assignorId);
      if (filters.status) query.where('status', filters.status);
      if (filters.originTitleId) query.where('origin_title_id', filters.originTitleId);
      if (filters.dueFrom) query.where('due_date', '>=', filters.dueFrom);
      if (filters.dueTo) query.where('due_date', '<=', filters.dueTo);
      return query;
    };
    const { items, total } = await paged<Record<string, unknown>>(filtered, newestFirst(), limit, offset);
    return { items: items.map((row) => payableOf(row)!), total };
  }
}
