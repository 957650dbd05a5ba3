import { v7 as uuidv7 } from 'uuid';
import type { Money } from '../../domain/money';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export type PayableStatus = 'OPEN' | 'PARTIALLY_PAID' | 'PAID' | 'WRITTEN_OFF';
export type PayableOrigin = 'TITLE_OVERDUE' | 'MANUAL';
/** What the assignor still owes: the debt a payment, a credit or an operation's netting can reduce. */
export const OPEN_PAYABLE_STATUSES: readonly PayableStatus[] = ['OPEN', 'PARTIALLY_PAID'];

export interface PayableRow {
  id: string;
  originator_id: string;
  assignor_id: string;
  origin: PayableOrigin;
  origin_title_id: string | null;
  reason: string | null;
  amount: string;
  paid_amount: string;
  remaining: string;
  written_off_amount: string;
  status: PayableStatus;
  due_date: string;
  write_off_reason: string | null;
  settled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewPayable {
  assignorId: string;
  origin: PayableOrigin;
  originTitleId: string | null;
  reason: string | null;
  amount: Money;
  dueDate: string;
}

export interface PayableFilters {
  assignorId?: string;
  status?: string;
  originTitleId?: string;
  dueFrom?: string;
  dueTo?: string;
}

/** One page of a filtered list, newest first, with the count before pagination. */
/** Assignor payables as records; every change of their balance goes through `PayablesLedger`. */
export class PayablesRepository extends TenantScopedRepository {
  async byId(id: string, lock = false): Promise<PayableRow | undefined> {
    const query = this.scoped('assignor_payables').where({ id }).first();
    return lock ? query.forUpdate() : query;
  }

  async open(input: NewPayable): Promise<PayableRow> {
    const amount = input.amount.toString();
    const [row] = await this.insertOwned('assignor_payables', {
      id: uuidv7(), assignor_id: input.assignorId, origin: input.origin, origin_title_id: input.originTitleId, reason: input.reason,
      amount, paid_amount: '0.00', remaining: amount, written_off_amount: '0.00', status: 'OPEN', due_date: input.dueDate,
    }).returning('*');
    return row;
  }

  /** The payable an overdue title opened, if it has. */
  async repurchaseOf(titleId: string): Promise<PayableRow | undefined> {
    return this.scoped('assignor_payables').where({ origin: 'TITLE_OVERDUE', origin_title_id: titleId }).first();
  }

  /** Oldest first, the order in which credits and netting settle them; locked when about to be debited. */
  async openOf(assignorId: string, lock: boolean): Promise<PayableRow[]> {
    const query = this.scoped('assignor_payables').where({ assignor_id: assignorId }).whereIn('status', [...OPEN_PAYABLE_STATUSES])
      .orderBy('created_at').orderBy('id');
    return lock ? query.forUpdate() : query;
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
    return paged(filtered, newestFirst(), limit, offset);
  }
}
