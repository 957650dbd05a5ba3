import type { RequestHandler } from 'express';
import { FieldError, ValidationFailed } from '../../domain/errors';

/**
 * Deeper than any body the document describes (the deepest is about 5 levels), shallow enough that
 * every recursive reader after this point (the validator, idempotency canonicalisation, the
 * `input` echo of `errors[]`) stays far from the stack limit.
 */
export const MAX_JSON_DEPTH = 32;

type Loc = (string | number)[];

/** Postgres refuses U+0000 in text and jsonb; said here, before anything is read or written. */
const nulError = (loc: Loc): FieldError => ({ loc, msg: 'String should not contain the NUL character (\\u0000)', type: 'string_pattern_mismatch' });

/**
 * The first value deeper than MAX_JSON_DEPTH (as the only error), else every string or key holding
 * a NUL character, in document order (an object's keys, last first, before its values). Recursive,
 * but never more than MAX_JSON_DEPTH calls deep: a value at that depth is refused, not entered.
 * `path` is the current `loc`, copied only on failure, so the common path allocates nothing per
 * value (a node object per value was a tenth of a simulation's garbage).
 */
function walk(value: unknown, path: Loc, errors: FieldError[]): FieldError[] | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) errors.push(nulError([...path]));
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (path.length > MAX_JSON_DEPTH) {
    return [{ loc: [...path], msg: `JSON should be nested at most ${MAX_JSON_DEPTH} levels deep`, type: 'too_deep', ctx: { max_depth: MAX_JSON_DEPTH } }];
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const tooDeep = walk(value[i], path, errors);
      path.pop();
      if (tooDeep) return tooDeep;
    }
    return null;
  }
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i].includes('\u0000')) errors.push(nulError([...path, keys[i]]));
  for (const key of keys) {
    path.push(key);
    const tooDeep = walk((value as Record<string, unknown>)[key], path, errors);
    path.pop();
    if (tooDeep) return tooDeep;
  }
  return null;
}

function bodyErrors(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  return walk(body, ['body'], errors) ?? errors;
}

/** Query values are strings or arrays of strings (Express's simple parser). */
function queryErrors(query: Record<string, unknown>): FieldError[] {
  return Object.entries(query)
    .filter(([name, value]) => name.includes('\u0000') || [value].flat().some((v) => typeof v === 'string' && v.includes('\u0000')))
    .map(([name]) => nulError(['query', name]));
}

/**
 * Input every later layer would choke on, refused as the contract's 422 right after parsing: JSON
 * nested beyond MAX_JSON_DEPTH, and NUL characters in any body string or query value.
 */
export function inputGuard(): RequestHandler {
  return (req, _res, next) => {
    const errors = [...queryErrors(req.query as Record<string, unknown>), ...(req.body === undefined ? [] : bodyErrors(req.body))];
    next(errors.length > 0 ? new ValidationFailed(errors) : undefined);
  };
}
