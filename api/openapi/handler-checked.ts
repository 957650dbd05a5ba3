/**
 * Rules the document states but the handler enforces, with the contract's own codes and `loc`
 * (a malformed amount is `decimal_parsing` at its field, a missing assignor is `missing` at the
 * deprecated name...). The served document carries them for clients and generators; the validator
 * gets a copy without them, so today's answers to those inputs stay the handler's.
 */
type Schema = Record<string, unknown>;

const MARK = 'x-checked-by-handler';

/**
 * `schema` that must also satisfy `rules`, added as one more `allOf` member: generators such as
 * openapi-typescript then keep the schema's own type (`T & unknown`) instead of a loose union.
 */
export function checkedByHandler<T extends Schema>(schema: T, rules: Schema): T {
  const allOf = (schema.allOf as Schema[] | undefined) ?? [];
  return { ...schema, allOf: [...allOf, handlerRule(rules)] };
}

/** `rules` as the marked member itself, for a schema that is already an `allOf` list. */
export const handlerRule = (rules: Schema): Schema => ({ ...rules, [MARK]: true });

/** A deep copy of the document for the validator: every marked rule replaced by `{}` (always valid). */
export function validatorCopy(document: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(document);
  const pending: unknown[] = [copy];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const container = node as Record<string, unknown>;
    for (const [key, child] of Object.entries(container)) {
      if (child !== null && typeof child === 'object' && MARK in child) container[key] = {};
      else pending.push(child);
    }
  }
  return copy;
}
