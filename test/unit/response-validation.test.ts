import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { buildDocument } from '../../api/openapi/document';
import { RouteTable } from '../../api/openapi/route-table';
import { resolveRoute } from '../../api/middleware/resolve-route';
import { openapiValidation } from '../../api/middleware/openapi-validation';
import { ok, sendReply } from '../../api/http/handle';

/**
 * Replies go out through `sendReply`, which skips `res.json` for speed; the validator checks a
 * response only on that path, so with response validation on (the test runs) a reply must still
 * pass it. A health reply that breaks the document must be caught there.
 */
async function answerTo(validateResponses: boolean, body: unknown): Promise<number> {
  const document = buildDocument('http://localhost:8000', 'dev');
  const app = express();
  app.use((req, _res, next) => { req.ctx = {} as never; next(); });
  app.use(resolveRoute(new RouteTable(document as never)));
  app.use(...openapiValidation(document, validateResponses));
  app.get('/v1/health', (_req, res) => sendReply(res, ok(body)));
  app.use(((err, _req, res, _next) => { res.status(err.status ?? 599).end(); }) as express.ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/health`)).status;
  } finally {
    server.close();
  }
}

describe('response validation of replies', () => {
  const valid = { status: 'ok', env: 'dev', version: '1.6.0', uptime_seconds: 3 };
  const broken = { ...valid, status: 'fine', uptime_seconds: '3' };

  it('lets a reply that matches the document through', async () => {
    expect(await answerTo(true, valid)).to.equal(200);
  });

  it('turns a reply that breaks the document into a 500 when response validation is on', async () => {
    expect(await answerTo(true, broken)).to.equal(500);
  });

  it('sends it unchecked when response validation is off (production)', async () => {
    expect(await answerTo(false, broken)).to.equal(200);
  });
});
