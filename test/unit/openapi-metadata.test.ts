import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { buildDocument } from '../../api/openapi/document';
import { RouteTable } from '../../api/openapi/route-table';
import { resolveRoute } from '../../api/middleware/resolve-route';
import { openapiValidation } from '../../api/middleware/openapi-validation';

interface Seen { status: number; body: unknown }

/**
 * What the validator's route metadata leaves on each request (read right after that step, before
 * any schema is checked), through the api's own route resolution, with the direct lookup or the
 * validator's own.
 */
async function metadataOf(lookup: 'direct' | 'validator', requests: { method: string; path: string }[]): Promise<Seen[]> {
  const document = buildDocument('http://localhost:8000', 'dev');
  const app = express();
  app.use((req, _res, next) => { req.ctx = {} as never; next(); });
  app.use(resolveRoute(new RouteTable(document as never)));
  // pathParams and metadata: the first two of the validator's middlewares.
  app.use(...openapiValidation(document, false, lookup).slice(0, 2));
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

describe('the validator route metadata taken from the resolved route', () => {
  it('is what the validator own lookup finds, for every documented operation, odd parameters and HEAD included', async () => {
    const document = buildDocument('http://localhost:8000', 'dev') as { paths: Record<string, Record<string, unknown>> };
    const requests: { method: string; path: string }[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        if (!item[method]) continue;
        for (const value of ['0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5', 'a%20b', '%E0%A4%A', 'direct']) {
          requests.push({ method: method.toUpperCase(), path: template.replace(/\{\w+\}/g, value) });
        }
        requests.push({ method: method.toUpperCase(), path: `${template.replace(/\{\w+\}/g, 'x')}/` });
        if (method === 'get') requests.push({ method: 'HEAD', path: template.replace(/\{\w+\}/g, 'x') });
      }
    }
    expect(requests.length).to.be.greaterThan(200);
    const direct = await metadataOf('direct', requests);
    const validator = await metadataOf('validator', requests);
    requests.forEach((request, i) => expect(direct[i], `${request.method} ${request.path}`).to.deep.equal(validator[i]));
    // The comparison covers requests the metadata was set for, not only refusals.
    expect(direct.filter((seen) => seen.status === 200 && (seen.body as { openapi?: unknown } | null)?.openapi).length).to.be.greaterThan(100);
  });
});
