import type { Knex } from 'knex';

export interface Page<T> {
  items: T[];
  total: number;
}

type Shape = (query: Knex.QueryBuilder) => Knex.QueryBuilder;

/**
 * A page of a filtered query and the count before pagination (the contract's `total`). `filtered`
 * builds the query afresh for each of the two statements; `shape` adds columns and order.
 */
export async function paged<T>(filtered: () => Knex.QueryBuilder, shape: Shape, limit: number, offset: number): Promise<Page<T>> {
  const [items, [{ count }]] = await Promise.all([
    shape(filtered()).limit(limit).offset(offset),
    filtered().count<{ count: number }[]>({ count: '*' }),
  ]);
  return { items, total: Number(count) };
}

/** Newest first, with the id (UUIDv7) breaking ties so pages never overlap. */
export const newestFirst = (table?: string): Shape => {
  const column = (name: string) => (table ? `${table}.${name}` : name);
  return (query) => query.orderBy(column('created_at'), 'desc').orderBy(column('id'), 'desc');
};
