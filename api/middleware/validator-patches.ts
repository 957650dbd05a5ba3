import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';

/**
 * Every patch of express-openapi-validator's private internals, and only those: they hold for the
 * exact version package.json pins (test/unit/validator-patches.test.ts checks each one against it),
 * so an upgrade is a deliberate step that re-runs those tests.
 */

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => unknown;

/**
 * express-openapi-validator 5.6 finds a request's route by compiling every documented path with
 * path-to-regexp on every request (lookupRoute, openapi.metadata.js): a tenth of a cached read's
 * CPU. A compilation depends only on the path and the options, so the module instance the
 * validator calls is given a memo; only documented paths reach it, so it stays small.
 */
export function memoisePathCompilation(): Compile {
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

/** Has the validator's next metadata middleware take the route resolveRoute found (directMetadata), where that is safe. */
export function takeResolvedRoutes(compile: Compile): void {
  // The instance whose metadata middleware the handlers build at their first request.
  const instance = (OpenApiValidator.middleware as { _oav?: { metadataMiddleware?: MetadataFactory } })._oav;
  if (typeof instance?.metadataMiddleware === 'function') instance.metadataMiddleware = directMetadata(instance.metadataMiddleware.bind(instance), compile);
}

type DeepObjectSchema = { default?: unknown; properties?: Record<string, { default?: unknown }> };
type HandleDeepObject = ((req: { query: Record<string, unknown> }, qs: string, name: string, schema: DeepObjectSchema) => void) & { original?: HandleDeepObject };

/** The validator's mutator class, whose methods the parameter handling calls through its prototype. */
export const requestParameterMutator = createRequire(require.resolve('express-openapi-validator'))('./middlewares/parsers/req.parameter.mutator')
  .RequestParameterMutator as { prototype: { handleDeepObject: HandleDeepObject } };

/**
 * express-openapi-validator 5.6 gives a deepObject query parameter a value on every request (`{}`
 * when the query has none) and then JSON-parses it, which for an object always throws, caught: an
 * exception per request, with the default worked out again, about a third of the validator's cost
 * on `GET /v1/events` (its `created` filter). An object value (what the query parser and
 * `foldBracketQueryKeys` make) is left as it is, and a missing one whose schema has no default is
 * `{}`, as the validator would leave them; a text (JSON in the query), an array and defaults take
 * the validator's own path.
 */
export function deepObjectsWithoutThrow(): void {
  const prototype = requestParameterMutator.prototype;
  if (prototype.handleDeepObject.original) return;
  const original = prototype.handleDeepObject;
  const patched: HandleDeepObject = function (this: unknown, req, qs, name, schema) {
    const value = req.query?.[name];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return;
    const defaults = schema.default !== undefined || !schema.properties || Object.values(schema.properties).some((property) => property.default);
    if (value === undefined && !defaults) {
      req.query[name] = {};
      return;
    }
    original.call(this, req, qs, name, schema);
  };
  patched.original = original;
  prototype.handleDeepObject = patched;
}
