import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, FieldError, ValidationFailed } from '../../domain/errors';
import { isCalendarDate } from '../../domain/pricing/business-date';
import { isTimestamp } from '../../domain/timestamps';
import { validatorCopy } from '../openapi/handler-checked';

interface ValidatorItem {
  path: string;
  message: string;
  errorCode?: string;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type', integer: 'int_type', number: 'float_type', boolean: 'bool_type',
  array: 'list_type', object: 'model_attributes_type', null: 'none_required',
};

/** AJV keywords to the FastAPI error type names integrators already branch on. */
function fastApiType(item: ValidatorItem): string {
  const keyword = item.errorCode?.split('.')[0] ?? '';
  switch (keyword) {
    case 'required': return 'missing';
    case 'type': {
      const expected = /must be (\w+)/.exec(item.message)?.[1] ?? '';
      return TYPE_NAMES[expected] ?? 'type_error';
    }
    case 'enum': return 'enum';
    case 'const': return 'literal_error';
    case 'minLength': return 'string_too_short';
    case 'maxLength': return 'string_too_long';
    case 'minimum': return 'greater_than_equal';
    case 'maximum': return 'less_than_equal';
    case 'exclusiveMinimum': return 'greater_than';
    case 'exclusiveMaximum': return 'less_than';
    case 'pattern': return 'string_pattern_mismatch';
    case 'format': return `${/format "([\w-]+)"/.exec(item.message)?.[1] ?? 'format'}_parsing`;
    case 'additionalProperties': case 'unevaluatedProperties': return 'extra_forbidden';
    case 'minItems': return 'too_short';
    case 'maxItems': return 'too_long';
    case 'uniqueItems': return 'list_unique';
    default: return 'value_error';
  }
}

const LOCATION_NAMES: Record<string, string> = { body: 'body', query: 'query', params: 'path', headers: 'header', path: 'path' };

function toLoc(path: string | undefined): (string | number)[] {
  const parts = (path ?? '').replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  return parts.map((part, i) => (i === 0 ? LOCATION_NAMES[part] ?? part : /^\d+$/.test(part) ? Number(part) : part));
}

function valueAt(source: unknown, loc: (string | number)[]): unknown {
  return loc.slice(1).reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), source);
}

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => unknown;

/**
 * express-openapi-validator 5.6 finds a request's route by compiling every documented path with
 * path-to-regexp on every request (lookupRoute, openapi.metadata.js): a tenth of a cached read's
 * CPU. A compilation depends only on the path and the options, so the module instance the
 * validator calls is given a memo; only documented paths reach it, so it stays small.
 */
function memoisePathCompilation(): Compile {
  const module = createRequire(require.resolve('express-openapi-validator'))('path-to-regexp') as { pathToRegexp: Compile & { memoised?: true } };
  if (module.pathToRegexp.memoised) return module.pathToRegexp;
  const compile = module.pathToRegexp;
  // One memo per combination of the two options, keyed by path alone: no key built per call.
  const memos = [new Map<string, unknown>(), new Map<string, unknown>(), new Map<string, unknown>(), new Map<string, unknown>()];
  const memoised: Compile & { memoised?: true } = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    for (const key in options) if (key !== 'sensitive' && key !== 'strict') return compile(path, options);
    const memo = memos[(options?.sensitive ? 2 : 0) + (options?.strict ? 1 : 0)];
    let compiled = memo.get(path);
    if (compiled === undefined) {
      compiled = compile(path, options);
      if (memo.size < 1_000) memo.set(path, compiled);
    }
    return compiled;
  };
  memoised.memoised = true;
  module.pathToRegexp = memoised;
  return memoised;
}

interface ValidatorRoute { basePath: string; expressRoute: string; openApiRoute: string; method: string }
interface ValidatorContext {
  routes: ValidatorRoute[];
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  serial: number;
  shouldIgnoreRoute(path: string): boolean;
}
type MetadataFactory = (context: ValidatorContext, responseApiDoc: { paths: Record<string, Record<string, unknown>> } | null) => RequestHandler;
interface Direct { regexp: RegExp; keys: string[]; openapi: Record<string, unknown>; shadows: RegExp[] }

/** Whether one request path could match both templates: as many segments, each pair equal or one a parameter. */
function overlap(a: string, b: string): boolean {
  const sa = a.split('/').filter(Boolean);
  const sb = b.split('/').filter(Boolean);
  const param = (segment: string) => segment.startsWith('{');
  return sa.length === sb.length && sa.every((segment, i) => param(segment) || param(sb[i]) || segment.toLowerCase() === sb[i].toLowerCase());
}

/**
 * express-openapi-validator looks the request's route up again on every request (lookupRoute,
 * openapi.metadata.js), trying the pattern of every documented path in turn until one matches: after
 * the memo above it was still the largest cost of the validator, about 4 % of the api's CPU on a
 * simulation. resolveRoute has found the template already. The validator's lookup ends on the
 * first path in its order (most literal first) that matches; when the request matches none of the
 * few paths before that template which could match the same requests (`/v1/operations/direct`
 * before `/v1/operations/{id}`), that first is the template itself, so its metadata is set straight
 * from it. Any other request (one such a path does match, HEAD, a path parameter that does not
 * decode) takes the validator's own lookup, unchanged.
 */
function directMetadata(original: MetadataFactory, compile: Compile): MetadataFactory {
  return (context, responseApiDoc) => {
    const fallback = original(context, responseApiDoc);
    const direct = new Map<string, Direct>();
    const patternOf = (expressRoute: string) => (compile(expressRoute, { sensitive: false, strict: false }) as { regexp: RegExp; keys: { name: string }[] });
    context.routes.forEach((route, at) => {
      const shadows = [...new Set(context.routes.slice(0, at)
        .filter((earlier) => earlier.expressRoute !== route.expressRoute && overlap(earlier.openApiRoute, route.openApiRoute))
        .map((earlier) => earlier.expressRoute))].map((expressRoute) => patternOf(expressRoute).regexp);
      const pathKey = route.openApiRoute.substring(route.basePath.length);
      const method = route.method.toLowerCase();
      const schema = context.apiDoc.paths[pathKey]?.[method];
      if (!schema) return;
      const { regexp, keys } = patternOf(route.expressRoute);
      direct.set(`${route.method} ${route.openApiRoute}`, {
        regexp,
        shadows,
        keys: keys.map((key) => key.name),
        openapi: {
          expressRoute: route.expressRoute,
          openApiRoute: route.openApiRoute,
          schema,
          serial: context.serial,
          ...(responseApiDoc ? { _responseSchema: responseApiDoc.paths[pathKey]?.[method] } : {}),
        },
      });
    });
    return (req, res, next) => {
      const template = req.ctx.route?.pathTemplate;
      const entry = template === undefined ? undefined : direct.get(`${req.method} ${template}`);
      const path = req.originalUrl.split('?')[0];
      // The validator's own options: case-insensitive, trailing slash optional, nothing ignored.
      if (!entry || req.app.enabled('case sensitive routing') || req.app.enabled('strict routing') || context.shouldIgnoreRoute(req.path)) return fallback(req, res, next);
      const found = entry.regexp.exec(path);
      if (!found || entry.shadows.some((shadow) => shadow.test(path))) return fallback(req, res, next);
      const pathParams: Record<string, string> = {};
      try {
        entry.keys.forEach((key, i) => { pathParams[key] = decodeURIComponent(found[i + 1]); });
      } catch {
        return fallback(req, res, next);
      }
      (req as unknown as { openapi: unknown }).openapi = { ...entry.openapi, pathParams };
      req.params = pathParams;
      next();
    };
  };
}

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

const BRACKET_KEY = /^([^[\]]+)\[([^[\]]+)\]$/;

/**
 * `created[gte]=…` as the object `created: {gte: …}`, folded from the values Express already
 * decoded. The validator would otherwise fold such keys itself by handing `key=value` to qs again,
 * decoding the value a second time: `%2B01:00` became `+01:00` and then ` 01:00`, so every date-time
 * filter with a positive offset was a 422. Only `name[property]` keys whose name is not already a
 * plain value are folded; req.query is made an own property, as the validator itself does for Express 5.
 */
const foldBracketQueryKeys: RequestHandler = (req, _res, next) => {
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
  // The instance whose metadata middleware the handlers build at their first request.
  const instance = (OpenApiValidator.middleware as { _oav?: { metadataMiddleware?: MetadataFactory } })._oav;
  if (lookup === 'direct' && typeof instance?.metadataMiddleware === 'function') instance.metadataMiddleware = directMetadata(instance.metadataMiddleware.bind(instance), compile);
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

/** Turns the validator's errors into the contract's `validation_error` envelope (422, never 400/415). */
export const mapValidatorErrors: ErrorRequestHandler = (err, req, _res, next) => {
  const status = (err as { status?: number }).status;
  const items = (err as { errors?: ValidatorItem[] }).errors;
  if (err instanceof AppError || !Array.isArray(items) || status === undefined || status >= 500) return next(err);
  if (status === 415) {
    return next(new ValidationFailed([{ loc: ['body'], msg: 'Content-Type must be application/json', type: 'model_attributes_type' }], 'Unsupported content type'));
  }
  const errors: FieldError[] = items.map((item) => {
    const loc = toLoc(item.path);
    const input = loc[0] === 'body' ? valueAt(req.body, loc) : undefined;
    return { loc, msg: item.message, type: fastApiType(item), ...(input === undefined ? {} : { input }) };
  });
  next(new ValidationFailed(errors));
};
