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

interface Node {
  value: unknown;
  key: string | number;
  parent: Node | null;
  depth: number;
}

/** The node's `loc`, built only on failure so that the common path allocates one small object per value. */
function locOf(node: Node): Loc {
  const loc: Loc = [];
  for (let n: Node | null = node; n; n = n.parent) loc.unshift(n.key);
  return loc;
}

/**
 * Walks a parsed JSON body without recursion: the first node deeper than MAX_JSON_DEPTH, and every
 * string or key holding a NUL character.
 */
function bodyErrors(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Node[] = [{ value: body, key: 'body', parent: null, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) errors.push(nulError(locOf(node)));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (node.depth >= MAX_JSON_DEPTH) {
      return [{ loc: locOf(node), msg: `JSON should be nested at most ${MAX_JSON_DEPTH} levels deep`, type: 'too_deep', ctx: { max_depth: MAX_JSON_DEPTH } }];
    }
    const depth = node.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: node, depth });
      continue;
    }
    for (const key of Object.keys(value).reverse()) {
      const child: Node = { value: (value as Record<string, unknown>)[key], key, parent: node, depth };
      if (key.includes('\u0000')) errors.push(nulError(locOf(child)));
      stack.push(child);
    }
  }
  return errors;
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
