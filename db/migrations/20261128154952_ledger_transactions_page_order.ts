import type { Knex } from 'knex';

/**
 * `GET /v1/ledger/transactions?operation_id=` (or `title_id=`) lists oldest first by id. With the
 * id after the key in the index, the page is read in its order and stops at its last row; without
 * it, Postgres chose between sorting every transaction of the operation and walking the primary
 * key from the ledger's first transaction, filtering the rest of the books out. The new indexes
 * replace the ones on the key alone (each still serves every lookup by that key), so writes keep
 * two index entries per transaction, each 16 bytes wider.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index ledger_transactions_originator_operation_order on ledger_transactions (originator_id, operation_id, id)');
  await knex.raw('drop index ledger_transactions_originator_id_operation_id_index');
  await knex.raw('create index ledger_transactions_originator_title_order on ledger_transactions (originator_id, title_id, id)');
  await knex.raw('drop index ledger_transactions_originator_id_title_id_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index ledger_transactions_originator_id_operation_id_index on ledger_transactions (originator_id, operation_id)');
  await knex.raw('drop index ledger_transactions_originator_operation_order');
  await knex.raw('create index ledger_transactions_originator_id_title_id_index on ledger_transactions (originator_id, title_id)');
  await knex.raw('drop index ledger_transactions_originator_title_order');
}
