/**
 * Rows leave a repository camelCase and writes enter it camelCase: the column names stay inside
 * `db/`. Shallow on purpose: a jsonb value keeps its own keys.
 */
const camelNames = new Map<string, string>();
const snakeNames = new Map<string, string>();

function camel(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

function snake(field: string): string {
  let name = snakeNames.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);
    snakeNames.set(field, name);
  }
  return name;
}

/** A row as read, its columns renamed to the fields of `T`. */
export function fromColumns<T>(row: Record<string, unknown>): T {
  const fields: Record<string, unknown> = {};
  for (const column of Object.keys(row)) fields[camel(column)] = row[column];
  return fields as T;
}

/** The columns of a write given as fields. */
export function toColumns(fields: object): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) row[snake(field)] = value;
  return row;
}
