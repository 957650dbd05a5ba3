import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { isCalendarDate } from '../../domain/pricing/business-date';
import { isTimestamp } from '../../domain/timestamps';
import { validatorCopy } from '../openapi/handler-checked';
import { deepObjectsWithoutThrow, memoisePathCompilation, parametersDecidedOnce, schemasCompiledOnce, takeResolvedRoutes } from './validator-patches';

type Parameter = { in?: string; allowReserved?: boolean };
/** The validator's type of a document: ours is built as plain objects, and the validator checks it (`validateApiSpec`). */
type ValidatorDocument = Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];

/**
 * The validator refuses a query value with a reserved character as written (`+`, `:`, `/`...),
 * but `+` is how URLSearchParams, Python requests and HTML forms send a space, and Express reads
 * it so. The served document keeps `allowReserved` false (what a client should send); the
 * validator's copy tolerates what the query parser already decodes.
 */
function tolerateFormEncodedQueries(copy: Record<string, unknown>): Record<string, unknown> {
  const lists: Parameter[][] = [Object.values((copy.components as { parameters?: Record<string, Parameter> } | undefined)?.parameters ?? {})];
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Record<string, { parameters?: Parameter[] }>>)) {
    for (const operation of [item, ...Object.values(item)]) if (Array.isArray(operation?.parameters)) lists.push(operation.parameters);
  }
  for (const parameter of lists.flat()) if (parameter.in === 'query') parameter.allowReserved = true;
  return copy;
}

/** Stricter than the validator's regex-only defaults: a real calendar day, and what Postgres accepts. */
export const VALIDATOR_FORMATS = { date: isCalendarDate, 'date-time': isTimestamp };

const BRACKET_KEY = /^([^[\]]+)\[([^[\]]+)\]$/;

/**
 * `created[gte]=…` as the object `created: {gte: …}`, folded from the values Express already
 * decoded. The validator would otherwise fold such keys itself by handing `key=value` to qs again,
 * decoding the value a second time: `%2B01:00` became `+01:00` and then ` 01:00`, so every date-time
 * filter with a positive offset was a 422. Only `name[property]` keys whose name is not already a
 * plain value are folded; req.query is made an own property, as the validator itself does for Express 5.
 */
const foldBracketQueryKeys: RequestHandler = (req, _res, next) => {
  // Most queries have no bracket: left as they are, without a copy.
  if (!Object.keys(req.query as object).some((key) => key.includes('['))) return next();
  const query = { ...(req.query as Record<string, unknown>) };
  let folded = false;
  for (const key of Object.keys(query)) {
    const match = BRACKET_KEY.exec(key);
    const target = match ? query[match[1]] : undefined;
    if (!match || (target !== undefined && (typeof target !== 'object' || target === null || Array.isArray(target)))) continue;
    query[match[1]] = { ...(target as Record<string, unknown> | undefined), [match[2]]: query[key] };
    delete query[key];
    folded = true;
  }
  if (folded) Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
  next();
};

type Lookup = 'direct' | 'validator';

/** What the validator is built with: the document's validator copy, and how strictly it checks. */
export function validatorOptions(apiSpec: Record<string, unknown>, validateResponses: boolean): Parameters<typeof OpenApiValidator.middleware>[0] {
  return {
    apiSpec: tolerateFormEncodedQueries(validatorCopy(apiSpec)) as ValidatorDocument,
    validateRequests: { allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateApiSpec: true,
    ignoreUndocumented: true,
    validateFormats: true,
    formats: VALIDATOR_FORMATS,
  };
}

/**
 * The validator's middlewares per document and options, for the life of the process. Building them
 * is cheap, but they compile the document's schemas at their first requests, seconds of CPU (each
 * response schema is added to ajv with the whole document beside it). An api process builds one
 * app; a test process builds dozens from the same document, and each paid that again. What they
 * compile depends only on the document and the options, so apps with equal ones share it.
 */
const built = new Map<string, RequestHandler[]>();
const MAX_BUILT = 8;

/** `lookup: 'validator'` keeps the validator's own route lookup on every request (the tests compare the two). */
export function openapiValidation(apiSpec: Record<string, unknown>, validateResponses: boolean, lookup: Lookup = 'direct'): RequestHandler[] {
  const key = `${validateResponses} ${lookup} ${JSON.stringify(apiSpec)}`;
  let handlers = built.get(key);
  if (!handlers) {
    if (built.size >= MAX_BUILT) built.clear();
    handlers = buildValidation(apiSpec, validateResponses, lookup);
    built.set(key, handlers);
  }
  return handlers;
}

function buildValidation(apiSpec: Record<string, unknown>, validateResponses: boolean, lookup: Lookup): RequestHandler[] {
  const compile = memoisePathCompilation();
  deepObjectsWithoutThrow();
  parametersDecidedOnce();
  schemasCompiledOnce();
  const handlers = OpenApiValidator.middleware(validatorOptions(apiSpec, validateResponses)) as RequestHandler[];
  if (lookup === 'direct') takeResolvedRoutes(compile);
  // After its path parameters and metadata (the first two), before it reads the query.
  return [...handlers.slice(0, 2), foldBracketQueryKeys, ...handlers.slice(2), ...(validateResponses ? [repliesThroughValidator] : [])];
}

/**
 * The validator checks a response only as it passes through `res.json`, which our replies skip
 * for speed (`sendReply`); with response validation on, they take that path.
 */
const repliesThroughValidator: RequestHandler = (_req, res, next) => {
  res.locals.replyThroughValidator = true;
  next();
};
