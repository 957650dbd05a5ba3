import { v7 as uuidv7 } from 'uuid';
import type { Money } from '../../domain/money';
import { fromColumns } from './columns';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface DiscountCreditRow {
  id: string;
  assignorId: string;
  amount: string;
  reason: string;
  externalId: string | null;
  createdAt: Date;
}

export interface NewDiscountCredit {
  assignorId: string;
  amount: Money;
  reason: string;
  externalId: string | null;
}

export class DiscountCreditsRepository extends TenantScopedRepository {
  async insert(input: NewDiscountCredit): Promise<DiscountCreditRow> {
    const [row] = await this.insertOwned('discount_credits', {
      id: uuidv7(), assignor_id: input.assignorId, amount: input.amount.toString(), reason: input.reason, external_id: input.externalId,
    }).returning('*');
    return fromColumns<DiscountCreditRow>(row);
  }

  async list(filters: { assignorId?: string }, limit: number, offset: number): Promise<{ items: DiscountCreditRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('discount_credits');
      return filters.assignorId ? query.where('assignor_id', filters.assignorId) : query;
    };
    const { items, total } = await paged<Record<string, unknown>>(filtered, newestFirst(), limit, offset);
    return { items: items.map((row) => fromColumns<DiscountCreditRow>(row)), total };
  }
}
