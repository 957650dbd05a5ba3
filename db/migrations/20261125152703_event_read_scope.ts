import type { Knex } from 'knex';

/**
 * `event:read` (GET /v1/events) comes with the other read scopes: a credential that may read
 * anything events report on, or its webhooks, gets it. Credentials are made by operators, so
 * without this the new route would be closed to every existing integration.
 */
const READERS = ['operation:read', 'stock:read', 'payable:read', 'webhook:read', 'webhook:write'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "update api_credentials set scopes = array_append(scopes, 'event:read') where scopes && ?::text[] and not ('event:read' = any(scopes))",
    [READERS],
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update api_credentials set scopes = array_remove(scopes, 'event:read')");
}
