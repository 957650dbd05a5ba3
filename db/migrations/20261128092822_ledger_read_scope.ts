import type { Knex } from 'knex';

/**
 * `ledger:read` (GET /v1/ledger/...) comes with the scopes that read the money it books: a
 * credential that may read operations or payables gets it, so existing integrations can read
 * their books without an operator's visit.
 */
const READERS = ['operation:read', 'payable:read'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "update api_credentials set scopes = array_append(scopes, 'ledger:read') where scopes && ?::text[] and not ('ledger:read' = any(scopes))",
    [READERS],
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update api_credentials set scopes = array_remove(scopes, 'ledger:read')");
}
