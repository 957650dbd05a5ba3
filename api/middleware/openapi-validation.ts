import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { isCalendarDate } from '../../domain/pricing/business-date';
import { isTimestamp } from '../../domain/timestamps';
import { validatorCopy } from '../openapi/handler-checked';
import { memoisePathCompilation, takeResolvedRoutes } from './validator-patches';

type Parameter = { in?: string; allowReserved?: boolean };

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

/** `lookup: 'validator'` keeps the validator's own route lookup on every request (the tests compare the two). */
export function openapiValidation(apiSpec: Record<string, unknown>, validateResponses: boolean, lookup: 'direct' | 'validator' = 'direct'): RequestHandler[] {
  const compile = memoisePathCompilation();
  const handlers = OpenApiValidator.middleware({
    apiSpec: tolerateFormEncodedQueries(validatorCopy(apiSpec)) as never,
    validateRequests: { allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateApiSpec: true,
    ignoreUndocumented: true,
    validateFormats: true,
    // Stricter than the regex-only defaults: a real calendar day, and what Postgres accepts.
    formats: { date: isCalendarDate, 'date-time': isTimestamp },
  }) as RequestHandler[];
  if (lookup === 'direct') takeResolvedRoutes(compile);
  return validateResponses ? [...handlers, repliesThroughValidator] : handlers;
}

/**
 * The validator checks a response only as it passes through `res.json`, which our replies skip
 * for speed (`sendReply`); with response validation on, they take that path.
 */
const repliesThroughValidator: RequestHandler = (_req, res, next) => {
  res.locals.replyThroughValidator = true;
  next();
};
