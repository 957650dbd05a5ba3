import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import express from 'express';
import { buildDocument } from '../../api/document/document';
import { RouteTable } from '../../api/openapi/route-table';
import { resolveRoute } from '../../api/middleware/resolve-route';
import { openapiValidation, VALIDATOR_FORMATS } from '../../api/middleware/openapi-validation';

export interface Seen { status: number; body: unknown }

/**
 * A bare app with the api's route resolution and the validator's first two middlewares (path
 * parameters and route metadata), answering with what the metadata left on each request, before
 * any schema is checked: with the direct lookup (validator-patches.ts) or the validator's own.
 */
export async function metadataOf(lookup: 'direct' | 'validator', requests: { method: string; path: string }[], beforeRequests?: () => void): Promise<Seen[]> {
  const document = buildDocument('http://localhost:8000', 'dev');
  const app = express();
  app.use((req, _res, next) => { req.ctx = {} as never; next(); });
  app.use(resolveRoute(new RouteTable(document as never)));
  app.use(...openapiValidation(document, false, lookup).slice(0, 2));
  beforeRequests?.();
  app.use((req, res) => {
    const openapi = (req as unknown as { openapi?: { expressRoute: string; openApiRoute: string; pathParams: unknown; schema: { operationId?: string } } }).openapi;
    res.json({
      openapi: openapi && { expressRoute: openapi.expressRoute, openApiRoute: openapi.openApiRoute, pathParams: openapi.pathParams, operationId: openapi.schema.operationId },
      params: req.params,
    });
  });
  app.use(((err, _req, res, _next) => { res.status(err.status ?? 599).json({ error: String(err.message) }); }) as express.ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const seen: Seen[] = [];
    for (const { method, path } of requests) {
      const res = await fetch(`${base}${path}`, { method });
      seen.push({ status: res.status, body: method === 'HEAD' ? null : await res.json() });
    }
    return seen;
  } finally {
    server.close();
  }
}

const validatorRequire = createRequire(require.resolve('express-openapi-validator'));
type ValidatorClass = new (...args: unknown[]) => Record<string, unknown>;
const { RequestValidator } = validatorRequire('./middlewares/openapi.request.validator') as { RequestValidator: ValidatorClass };
const { ParametersSchemaParser } = validatorRequire('./middlewares/parsers/schema.parse') as { ParametersSchemaParser: ValidatorClass };
const { RequestParameterMutator } = validatorRequire('./middlewares/parsers/req.parameter.mutator') as { RequestParameterMutator: ValidatorClass };

export interface MutatedOperation { path: string; method: string; operation: { parameters?: unknown[] }; mutator: object }

/**
 * Every operation of `document` with the parameter mutator the validator builds for its requests
 * (RequestValidator.buildMiddleware: the request ajv of the document, the route's parsed parameter
 * schemas), for calling the mutator's modifyRequest, patched or not, on hand-made requests.
 */
export function parameterMutators(document: Record<string, unknown>): MutatedOperation[] {
  const validator = new RequestValidator(document, { formats: VALIDATOR_FORMATS });
  const [ajv, apiDoc] = [validator.ajv, validator.apiDoc] as [{ getSchema: unknown }, { paths: Record<string, Record<string, { parameters?: unknown[] }>> }];
  const schemas = new ParametersSchemaParser(ajv, apiDoc) as unknown as { parse(path: string, parameters?: unknown[]): unknown };
  return Object.entries(apiDoc.paths).flatMap(([path, item]) => ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item[method]).map((method) => {
    const operation = item[method];
    return { path, method, operation, mutator: new RequestParameterMutator(ajv, apiDoc, path, schemas.parse(path, operation.parameters)) };
  }));
}

type Handler = ((req: unknown, res: unknown, next: (err?: unknown) => void) => unknown) & { name: string };
interface ValidatorInstance {
  ajvOpts: { request: object; response: object };
  options: { validateResponses: object };
  requestValidationMiddleware(apiDoc: object): unknown;
  responseValidationMiddleware(apiDoc: object, serial: number): unknown;
}
export type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>; components: Record<string, unknown> };
const middlewares = validatorRequire('./middlewares') as { RequestValidator: ValidatorClass; ResponseValidator: ValidatorClass };

/**
 * The validator's request and response documents as it prepares them from ours (its preprocessor
 * adds its keywords, the response copy its own), and the constructors its middlewares build from
 * them with its ajv options: as `OpenApiValidator.middleware` builds them for `options`.
 */
export async function validatorsOf(options: object): Promise<{ requestDocument: OpenApiDocument; responseDocument: OpenApiDocument; request(): Record<string, unknown>; response(): Record<string, unknown> }> {
  const handlers = (validatorRequire('./index') as { middleware: ((options: object) => Handler[]) & { _oav: ValidatorInstance } }).middleware(options);
  const instance = (validatorRequire('./index') as { middleware: { _oav: ValidatorInstance } }).middleware._oav;
  const documents: { request?: OpenApiDocument; response?: OpenApiDocument } = {};
  const [request, response] = [instance.requestValidationMiddleware.bind(instance), instance.responseValidationMiddleware.bind(instance)];
  instance.requestValidationMiddleware = (apiDoc) => { documents.request = apiDoc as OpenApiDocument; return request(apiDoc); };
  instance.responseValidationMiddleware = (apiDoc, serial) => { documents.response = apiDoc as OpenApiDocument; return response(apiDoc, serial); };
  // Each builds its validator at its first request; one with no route metadata goes straight on.
  for (const name of ['requestMiddleware', 'responseMiddleware']) {
    const handler = handlers.find((h) => h.name === name)!;
    await new Promise<void>((resolve, reject) => { handler({ headers: {} }, {}, (err) => (err ? reject(err) : resolve())); });
  }
  return {
    requestDocument: documents.request!,
    responseDocument: documents.response!,
    request: () => new middlewares.RequestValidator(documents.request, instance.ajvOpts.request),
    response: () => new middlewares.ResponseValidator(documents.response, instance.ajvOpts.response, instance.options.validateResponses),
  };
}
