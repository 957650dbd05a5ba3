/**
 * Rules the document states but the handler enforces, with the contract's own codes and `loc`
 * (a malformed amount is `decimal_parsing` at its field, a missing assignor is `missing` at the
 * deprecated name...). The served document carries them for clients and generators; the validator
 * gets a copy without them, so today's answers to those inputs stay the handler's.
 */
type Schema = Record<string, unknown>;

const MARK = 'x-checked-by-handler';

/** `schema` plus `rules`, marked so that only the document, not the validator, applies `rules`. */
export function checkedByHandler<T extends Schema>(schema: T, rules: Schema): T {
  return { ...schema, ...rules, [MARK]: Object.keys(rules) };
}

/** A deep copy of the document for the validator: every marked rule (and the mark) left out. */
export function validatorCopy(document: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(document);
  const pending: unknown[] = [copy];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const object = node as Schema;
    const marked = object[MARK];
    if (Array.isArray(marked)) {
      for (const key of [...marked, MARK]) delete object[key as string];
    }
    pending.push(...Object.values(object));
  }
  return copy;
}
