import type { Knex } from 'knex';
import { InputErrors } from '../../domain/money-input';
import type { Money } from '../../domain/money';
import { createOnceByExternalId, Deduplicated, ExternalIdClaim } from '../../db/repositories/external-id';
import type { UnitOfWork } from '../http/context';

/** A money field of the body that must be above zero: a payment or credit of nothing is a mistake. */
export function positiveAmount(raw: unknown, field: string): Money {
  const errors = new InputErrors();
  const amount = errors.money(raw, ['body', field], { positive: true });
  errors.throwIfAny();
  return amount!;
}

/** Mutating requests always run in a transaction (api/http/unit-of-work.ts, the idempotency executor). */
export const transactionOf = (uow: UnitOfWork) => uow.db as Knex.Transaction;

/**
 * The contract's `external_id` rule: with one, the record is created once per grain and a retry
 * gets it back with `idempotent_replay: true`; without one, two equal requests make two records.
 */
export async function createOnceIfIdentified<T extends object>(
  trx: Knex.Transaction,
  claim: Omit<ExternalIdClaim, 'externalId'> & { externalId?: string | null },
  create: (trx: Knex.Transaction) => Promise<T>,
): Promise<Deduplicated<T>> {
  if (!claim.externalId) return { ...(await create(trx)), idempotent_replay: false };
  return createOnceByExternalId(trx, { ...claim, externalId: claim.externalId }, create);
}
