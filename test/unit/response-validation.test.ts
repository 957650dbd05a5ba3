import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { buildDocument } from '../../api/document/document';
import { RouteTable } from '../../api/openapi/route-table';
import { resolveRoute } from '../../api/middleware/resolve-route';
import { openapiValidation } from '../../api/middleware/openapi-validation';
import { ok, sendReply } from '../../api/http/handle';
import { errorHandler, lastResortJson } from '../../api/middleware/error-handler';
import { AppError, ValidationFailed } from '../../domain/errors';
import { createLogger } from '../../platform/logger';

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

/**
 * Issue #24: error bodies are checked against the document like replies, through the app's own
 * error handler; one that breaks it still answers JSON (never Express's HTML page).
 */
async function errorAnswerTo(error: AppError): Promise<{ status: number; type: string | null; body: string }> {
  const document = buildDocument('http://localhost:8000', 'dev');
  const logger = createLogger('error', 'test');
  const app = express();
  app.use((req, _res, next) => { req.ctx = {} as never; next(); });
  app.use(resolveRoute(new RouteTable(document as never)));
  app.use(...openapiValidation(document, true));
  app.get('/v1/products', (_req, _res, next) => next(error));
  app.use(errorHandler(logger));
  app.use(lastResortJson(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/products`);
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  } finally {
    server.close();
  }
}

describe('response validation of error bodies', () => {
  it('lets an error body that matches the document through', async () => {
    const answer = await errorAnswerTo(ValidationFailed.field(['query', 'limit'], 'must be <= 200', 'less_than_equal'));
    expect(answer.status, answer.body).to.equal(422);
    expect(JSON.parse(answer.body).detail).to.include({ code: 'validation_error' });
  });

  it('turns one that breaks the document into a JSON 500, not an HTML page', async () => {
    const answer = await errorAnswerTo(new AppError(422, 42 as never));
    expect(answer).to.deep.equal({ status: 500, type: 'application/json; charset=utf-8', body: '{"detail":"internal_error"}' });
  });

  it('checks the status too: one the operation does not list is refused the same way', async () => {
    const answer = await errorAnswerTo(new AppError(418, 'teapot'));
    expect(answer.status).to.equal(500);
    expect(answer.type).to.equal('application/json; charset=utf-8');
  });
});
