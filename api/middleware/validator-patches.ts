import { createRequire } from 'node:module';
import * as url from 'node:url';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';

/**
 * Every patch of express-openapi-validator's private internals, and only those: they hold for the
 * exact version package.json pins (test/unit/validator-patches.test.ts checks each one against it),
 * so an upgrade is a deliberate step that re-runs those tests.
 */

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => unknown;

/** Requires a module as express-openapi-validator itself does: its own files, and the instances of its dependencies it uses. */
const validatorRequire = createRequire(require.resolve('express-openapi-validator'));

/**
 * express-openapi-validator 5.6 finds a request's route by compiling every documented path with
 * path-to-regexp on every request (lookupRoute, openapi.metadata.js): a tenth of a cached read's
 * CPU. A compilation depends only on the path and the options, so the module instance the
 * validator calls is given a memo; only documented paths reach it, so it stays small.
 */
export function memoisePathCompilation(): Compile {
  const module = validatorRequire('path-to-regexp') as { pathToRegexp: Compile & { memoised?: true } };
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
export const requestParameterMutator = validatorRequire('./middlewares/parsers/req.parameter.mutator')
  .RequestParameterMutator as { prototype: { handleDeepObject: HandleDeepObject; modifyRequest: ModifyRequest } };

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

interface MutatorParameter { name: string; in: string; style?: string; explode?: boolean; allowReserved?: boolean; content?: unknown }
type MutatorSchema = { type?: string };
type MutatorRequest = { originalUrl: string; query: Record<string, unknown>; openapi: { schema: { parameters?: unknown[] } } };
/** The mutator's own methods that modifyRequest calls, each unchanged. */
interface Mutator {
  ajv: object;
  _apiDocs: object;
  modifyRequest: ModifyRequest;
  parseQueryStringUndecoded(query: string | null): Map<string, string[]>;
  handleBracketNotationQueryFields(query: Record<string, unknown>): Record<string, unknown>;
  validateReservedCharacters(name: string, rawQuery: Map<string, string[]>, allowComma?: boolean): void;
  isObjectOrXOf(schema: MutatorSchema): boolean;
  handleContent(req: MutatorRequest, name: string, parameter: MutatorParameter): void;
  handleFormExplode(req: MutatorRequest, name: string, schema: MutatorSchema, parameter: MutatorParameter): void;
  handleDeepObject(req: MutatorRequest, qs: string, name: string, schema: MutatorSchema): void;
  parseJsonAndMutateRequest(req: MutatorRequest, $in: string, name: string): void;
  csvToKeyValuePairs(value: string): Record<string, string> | undefined;
  validateArrayDelimiter(delimiter: string | undefined, parameter: MutatorParameter): void;
  parseJsonArrayAndMutateRequest(req: MutatorRequest, $in: string, name: string, delimiter: string | undefined, rawQuery: Map<string, string[]>): void;
  explodeJsonArrayAndMutateRequest(req: MutatorRequest, $in: string, name: string): void;
}
type ModifyRequest = ((this: Mutator, req: MutatorRequest) => void) & { original?: ModifyRequest };
/** What one request gives each parameter's step: the query as written (undecoded) and the query string, each worked out when a step first asks. */
class RawQuery {
  private parsed?: Map<string, string[]>;
  private query?: string;

  constructor(private readonly mutator: Mutator, private readonly originalUrl: string) {}

  pairs(): Map<string, string[]> {
    return (this.parsed ??= this.mutator.parseQueryStringUndecoded(url.parse(this.originalUrl).query));
  }

  text(): string {
    return (this.query ??= this.originalUrl.substring(this.originalUrl.indexOf('?') + 1));
  }
}
type Step = (mutator: Mutator, req: MutatorRequest, raw: RawQuery) => void;

const parameterUtil = validatorRequire('./middlewares/parsers/util') as {
  dereferenceParameter(apiDocs: object, parameter: unknown): MutatorParameter;
  normalizeParameter(ajv: object, parameter: MutatorParameter): { name: string; schema: MutatorSchema };
};
const mutatorPrototype = requestParameterMutator.prototype as unknown as Mutator;
/** The validator's delimiters of a non-exploded array, by style (req.parameter.mutator.js keeps them private). */
const ARRAY_DELIMITER: Record<string, string> = { simple: ',', form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/**
 * One parameter's handling, decided once from the document as modifyRequest decides it on every
 * request (the same branches, in the same order), each branch calling the mutator's own method.
 */
function stepOf(mutator: Mutator, declared: unknown): Step {
  const parameter = parameterUtil.dereferenceParameter(mutator._apiDocs, declared);
  const { name, schema } = parameterUtil.normalizeParameter(mutator.ajv, parameter);
  const { style, explode } = parameter;
  const reserved: Step = parameter.in === 'query' && !parameter.allowReserved
    ? (m, _req, raw) => m.validateReservedCharacters(name, raw.pairs(), !explode)
    : () => undefined;
  let handle: Step = () => undefined;
  if (parameter.content) {
    handle = (m, req) => m.handleContent(req, name, parameter);
  } else if (parameter.in === 'query' && mutator.isObjectOrXOf(schema)) {
    if (style === 'form' && explode) {
      handle = (m, req) => { m.parseJsonAndMutateRequest(req, parameter.in, name); m.handleFormExplode(req, name, schema, parameter); };
    } else if (style === 'deepObject') {
      handle = (m, req, raw) => m.handleDeepObject(req, raw.text(), name, schema);
    } else if (style === 'form' && !explode && schema.type === 'object') {
      handle = (m, req) => {
        const value = req.query[name];
        const pairs = typeof value === 'string' ? m.csvToKeyValuePairs(value) : undefined;
        if (pairs) req.query[name] = pairs;
        else m.parseJsonAndMutateRequest(req, parameter.in, name);
      };
    } else {
      handle = (m, req) => m.parseJsonAndMutateRequest(req, parameter.in, name);
    }
  } else if (schema.type === 'array' && !explode) {
    const delimiter = ARRAY_DELIMITER[String(style)];
    handle = (m, req, raw) => { m.validateArrayDelimiter(delimiter, parameter); m.parseJsonArrayAndMutateRequest(req, parameter.in, name, delimiter, raw.pairs()); };
  } else if (schema.type === 'array' && explode) {
    handle = (m, req) => m.explodeJsonArrayAndMutateRequest(req, parameter.in, name);
  } else if (style === 'form' && explode) {
    handle = (m, req) => m.handleFormExplode(req, name, schema, parameter);
  }
  return (m, req, raw) => { reserved(m, req, raw); handle(m, req, raw); };
}

/**
 * express-openapi-validator 5.6 rebuilds a route's parameter handling on every request
 * (modifyRequest, req.parameter.mutator.js): it parses the URL again with `url.parse`, then
 * dereferences, normalises and classifies each documented parameter, about two thirds of the
 * validator's CPU on `GET /v1/events` (seven parameters), half of it `url.parse`. The steps depend
 * only on the route's parameters and the validator's schemas, so they are decided once per route
 * (stepOf) and kept by operation. The URL is parsed only when a step reads the query as written (a
 * query parameter without `allowReserved`, a non-exploded array): the validator's copy of our
 * document allows reserved characters in every query parameter, so no route of ours parses it.
 */
export function parametersDecidedOnce(): void {
  if (mutatorPrototype.modifyRequest.original) return;
  const original = mutatorPrototype.modifyRequest;
  const decided = new WeakMap<object, WeakMap<object, Step[]>>();
  const patched: ModifyRequest = function (req) {
    const operation = req.openapi.schema;
    let byOperation = decided.get(this.ajv);
    if (!byOperation) decided.set(this.ajv, (byOperation = new WeakMap()));
    let steps = byOperation.get(operation);
    if (!steps) byOperation.set(operation, (steps = (operation.parameters ?? []).map((parameter) => stepOf(this, parameter))));
    const raw = new RawQuery(this, req.originalUrl);
    req.query = this.handleBracketNotationQueryFields(req.query);
    for (const step of steps) step(this, req, raw);
  };
  patched.original = original;
  mutatorPrototype.modifyRequest = patched;
}

interface SchemaStore { addSchema(schema: object, key: string): unknown; getSchema(key: string): unknown }
type Schema = Record<string, unknown>;
type UseAjvCache = ((ajv: SchemaStore, schema: Schema, key: string) => unknown) & { original?: UseAjvCache };
const validatorUtil = validatorRequire('./middlewares/util') as { useAjvCache: UseAjvCache };

/** A copy of `value` whose local references (`#/components/...`) point into the schema `id` instead. */
function referringTo(id: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => referringTo(id, item));
  if (value === null || typeof value !== 'object') return value;
  const copy: Schema = {};
  for (const [key, inner] of Object.entries(value)) copy[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#') ? `${id}${inner}` : referringTo(id, inner);
  return copy;
}

/**
 * express-openapi-validator 5.6 compiles each route's request schemas and each response status's
 * schema (useAjvCache, util.js) as a root of its own with the whole document's `components` and
 * `paths` beside it, so that `#/components/...` resolves: every compilation walks the whole document
 * (ajv collects the ids of a new root through all its keys) and compiles every schema it refers to
 * again, those of the schemas it refers to too: 9.8 s of CPU for our document's responses, which an
 * api paid across the first request of each route (1.2 s with this patch). Here the document's schemas are added to each ajv once, as
 * a schema of their own, and each root refers into it: a component is compiled once per ajv, and a
 * root's copy is only its own few keys. What is validated, and the errors' instance paths and
 * messages, are unchanged (only their schema paths name the shared schema).
 */
export function schemasCompiledOnce(): void {
  if (validatorUtil.useAjvCache.original) return;
  const original = validatorUtil.useAjvCache;
  const documents = new WeakMap<SchemaStore, Map<unknown, string>>();
  const patched: UseAjvCache = (ajv, schema, key) => {
    const compiled = ajv.getSchema(key);
    if (compiled) return compiled;
    const { components, paths, ...own } = schema;
    if (components === null || typeof components !== 'object') return original(ajv, schema, key);
    let ids = documents.get(ajv);
    if (!ids) documents.set(ajv, (ids = new Map()));
    let id = ids.get(components);
    if (!id) {
      // An absolute URI: a root's key (`GET-/v1/...`) is its base, against which a relative one would resolve.
      id = `urn:express-openapi-validator:document:${ids.size}`;
      ajv.addSchema({ components, paths }, id);
      ids.set(components, id);
    }
    ajv.addSchema(referringTo(id, own) as object, key);
    return ajv.getSchema(key);
  };
  patched.original = original;
  validatorUtil.useAjvCache = patched;
}
