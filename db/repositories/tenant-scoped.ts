import type { Knex } from 'knex';

/**
 * Base of every repository of tenant resources: each query it builds is filtered by the
 * originator of the caller, so another tenant's row is simply not found (404) and never listed.
 */
export abstract class TenantScopedRepository {
  constructor(protected readonly db: Knex, protected readonly originatorId: string) {}

  /** A query on `table` already restricted to this tenant. */
  protected scoped(table: string): Knex.QueryBuilder {
    const name = table.split(/\s+as\s+/i).pop()!.trim();
    return this.db(table).where(`${name}.originator_id`, this.originatorId);
  }

  /** Rows inserted through here always belong to this tenant. */
  protected insertOwned<T extends Record<string, unknown>>(table: string, rows: T | T[]): Knex.QueryBuilder {
    const list = Array.isArray(rows) ? rows : [rows];
    return this.db(table).insert(list.map((row) => ({ ...row, originator_id: this.originatorId })));
  }
}
