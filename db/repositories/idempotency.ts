import type { Knex } from 'knex';

export interface IdempotencyKeyRef {
  scope: string;
  key: string;
}

export interface Reservation extends IdempotencyKeyRef {
  route: string;
  requestHash: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A response as it went out: `body` is the exact JSON text (null for no body). */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export interface IdempotencyRecord {
  route: string;
  requestHash: string;
  response: StoredResponse;
}

// The statements every keyed request runs are prepared once per connection (named), which
// skips parsing and planning on each request.

/**
 * Inserts the reservation, or takes over a record past its expiry (the purge may not have run
 * yet). While another transaction holds an uncommitted row for the key this statement waits on
 * the primary key; that wait is the in-flight wait. False when a live record already exists.
 */
export async function reserve(trx: Knex.Transaction, r: Reservation): Promise<boolean> {
  const { rows } = await trx.raw(
    `insert into idempotency_records as r (scope, key, route, request_hash, created_at, expires_at)
     values (:scope, :key, :route, :requestHash, :createdAt, :expiresAt)
     on conflict (scope, key) do update
       set route = excluded.route, request_hash = excluded.request_hash, created_at = excluded.created_at,
           expires_at = excluded.expires_at, response_status = null, response_headers = null, response_body = null
       where r.expires_at <= excluded.created_at
     returning 1`,
    { ...r },
  ).options({ name: 'idempotency_reserve' });
  return rows.length === 1;
}

/** The committed record of a key; committed records always carry their response. */
export async function findRecord(trx: Knex.Transaction, ref: IdempotencyKeyRef): Promise<IdempotencyRecord> {
  const row = await trx('idempotency_records').where(ref).first('route', 'request_hash', 'response_status', 'response_headers', 'response_body');
  if (!row || row.response_status === null) throw new Error(`idempotency record ${ref.scope}/${ref.key} has no response`);
  return {
    route: row.route,
    requestHash: row.request_hash,
    response: { status: row.response_status, headers: row.response_headers, body: row.response_body },
  };
}

export async function storeResponse(trx: Knex.Transaction, ref: IdempotencyKeyRef, response: StoredResponse): Promise<void> {
  await trx('idempotency_records').where(ref).update({
    response_status: response.status,
    response_headers: JSON.stringify(response.headers),
    response_body: response.body,
  }).options({ name: 'idempotency_store_response' });
}

export async function releaseReservation(trx: Knex.Transaction, ref: IdempotencyKeyRef): Promise<void> {
  await trx('idempotency_records').where(ref).delete();
}

export async function purgeExpiredRecords(db: Knex, now: Date): Promise<number> {
  return db('idempotency_records').where('expires_at', '<=', now).delete();
}
