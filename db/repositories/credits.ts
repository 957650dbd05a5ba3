import { v7 as uuidv7 } from 'uuid';
import type { Money } from '../../domain/money';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface DiscountCreditRow {
  id: string;
  assignor_id: string;
  amount: string;
  reason: string;
  external_id: string | null;
  created_at: Date;
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
    return row;
  }

  async list(filters: { assignorId?: string }, limit: number, offset: number): Promise<{ items: DiscountCreditRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('discount_credits');
      return filters.assignorId ? query.where('assignor_id', filters.assignorId) : query;
    };
    return paged(filtered, newestFirst(), limit, offset);
  }
}
