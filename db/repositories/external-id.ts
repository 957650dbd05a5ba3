import type { Knex } from 'knex';
import { Conflict } from '../../domain/errors';

export interface ExternalIdClaim {
  /** The route's rule, e.g. `assignor_payable_payment` or `discount_credit`. */
  grain: string;
  /** The entity bounding uniqueness: the payable id, the originator id. */
  scope: string;
  externalId: string;
  /** The request as received; compared field by field, value bytes exactly, on a retry. */
  request: Record<string, unknown>;
}

export type Deduplicated<T> = T & { idempotent_replay: boolean };

/** Top-level fields whose JSON differs, present on one side only included. */
function divergingFields(stored: Record<string, unknown>, incoming: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(stored), ...Object.keys(incoming)]);
  return [...names].filter((name) => JSON.stringify(stored[name]) !== JSON.stringify(incoming[name])).sort();
}

const refOf = (claim: ExternalIdClaim) => ({ grain: claim.grain, scope: claim.scope, external_id: claim.externalId });

function refuseDifferentBody(storedRequest: string, claim: ExternalIdClaim): void {
  const fields = divergingFields(JSON.parse(storedRequest), claim.request);
  if (fields.length === 0) return;
  throw new Conflict({
    code: 'external_id_reused_with_different_body',
    message: `external_id ${claim.externalId} was already used with a different body`,
    fields,
  });
}

/**
 * Runs `create` once per (grain, scope, external_id), inside the caller's transaction, and keeps
 * what it returned: a retry with the same request gets that original record with
 * `idempotent_replay: true`; one with another request gets 409
 * `external_id_reused_with_different_body` naming the diverging fields. A concurrent retry waits
 * on the primary key until the first commits. Claim and record share a savepoint, so a `create`
 * that throws leaves no claim behind.
 */
export async function createOnceByExternalId<T extends object>(
  trx: Knex.Transaction,
  claim: ExternalIdClaim,
  create: (trx: Knex.Transaction) => Promise<T>,
): Promise<Deduplicated<T>> {
  const ref = refOf(claim);
  return trx.transaction(async (sp) => {
    const inserted = await sp('external_id_records').insert({ ...ref, request: JSON.stringify(claim.request) }).onConflict(['grain', 'scope', 'external_id']).ignore().returning('grain');
    if (inserted.length === 1) {
      const record = await create(sp);
      await sp('external_id_records').where(ref).update({ result: JSON.stringify(record) });
      return { ...record, idempotent_replay: false };
    }
    const original = await sp('external_id_records').where(ref).first('request', 'result');
    refuseDifferentBody(original.request, claim);
    return { ...(JSON.parse(original.result) as T), idempotent_replay: true };
  });
}

/**
 * The first step of `createOnceByExternalId` for work that must not hold a transaction while it
 * runs (a workflow update that may wait on Temporal): the claim is committed on its own. Answers
 * the stored record when an earlier request with this body finished (`idempotent_replay: true`),
 * else null: the caller does the work, which must itself be keyed by the external_id, since an
 * earlier request may be doing it too, or may have done it and died before `settleExternalId`.
 */
export async function claimExternalId<T extends object>(db: Knex, claim: ExternalIdClaim): Promise<Deduplicated<T> | null> {
  return db.transaction(async (trx) => {
    const inserted = await trx('external_id_records').insert({ ...refOf(claim), request: JSON.stringify(claim.request) })
      .onConflict(['grain', 'scope', 'external_id']).ignore().returning('grain');
    if (inserted.length === 1) return null;
    const original = await trx('external_id_records').where(refOf(claim)).first('request', 'result');
    refuseDifferentBody(original.request, claim);
    return original.result === null ? null : { ...(JSON.parse(original.result) as T), idempotent_replay: true };
  });
}

/** The second step: keeps what the work produced, or, when it was refused (nothing applied), frees the external_id again. */
export async function settleExternalId(db: Knex, claim: ExternalIdClaim, record: object | null): Promise<void> {
  const pending = db('external_id_records').where(refOf(claim)).whereNull('result');
  await (record === null ? pending.delete() : pending.update({ result: JSON.stringify(record) }));
}
