import type { Knex } from 'knex';
import { Money } from '../../domain/money';

/**
 * The assignor's open debt that a new operation nets out of its PIX amount (DESIGN.md §6,
 * `other_debt_discounts`). Assignor payables do not exist yet, so there is none to net.
 */
export async function openDebtOf(_trx: Knex, _originatorId: string, _assignorId: string): Promise<Money> {
  return Money.ZERO;
}
