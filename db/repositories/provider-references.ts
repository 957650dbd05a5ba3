import type { Knex } from 'knex';

/**
 * Which operation a provider's reference belongs to, across originators: provider callbacks carry
 * only the provider's ids (and our idempotency key), never our tenant.
 */
export async function operationOfDocument(db: Knex, documentId: string): Promise<string | null> {
  const row = await db('contracts').where({ provider_document_id: documentId }).first('operation_id');
  return row?.operation_id ?? null;
}

/** By the key too: a payment that settles at once calls back before its id is stored. */
export async function operationOfPayment(db: Knex, paymentId: string, idempotencyKey: string | null): Promise<string | null> {
  const row = await db('disbursements')
    .where((q) => {
      q.where({ provider_payment_id: paymentId });
      if (idempotencyKey) q.orWhere({ idempotency_key: idempotencyKey });
    })
    .first('operation_id');
  return row?.operation_id ?? null;
}
