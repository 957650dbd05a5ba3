import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { anotherApi, sharedApi, sharedWorker, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, buildUser, loginAs } from '../support/factories';

describe('platform rules', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });

  function expectPlatformHeaders(headers: Headers) {
    expect(headers.get('x-service-env')).to.equal('dev');
    expect(headers.get('x-service-banner')).to.equal('DEV');
    expect(headers.get('x-request-id')).to.match(/^[\w.:-]+$/);
    expect(headers.get('x-correlation-id')).to.equal(headers.get('x-request-id'));
    expect(headers.get('x-service-api-version')).to.equal('1.7.0');
  }

  it('serves /v1/health with status, env, version and uptime, and the platform headers', async () => {
    const res = await client.get('/v1/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'ok', env: 'dev', version: '1.7.0' });
    expect(res.body.uptime_seconds).to.be.a('number');
    expectPlatformHeaders(res.headers);
  });

  it('puts the platform headers on errors too, and echoes the caller\'s correlation id', async () => {
    const res = await client.get('/v1/nowhere', { headers: { 'X-Correlation-Id': 'corr-123' } });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: 'not_found' });
    expect(res.headers.get('x-correlation-id')).to.equal('corr-123');
    expect(res.headers.get('x-service-banner')).to.equal('DEV');
  });

  it('answers malformed JSON with 422 validation_error, never 400', async () => {
    const res = await client.request('POST', '/v1/auth/token', { rawBody: '{"client_id": ' });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('validation_error');
    expect(res.body.detail.errors[0].type).to.equal('json_invalid');
  });

  it('answers a wrong content type with 422', async () => {
    const res = await client.request('POST', '/v1/auth/token', { rawBody: 'client_id=x', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('validation_error');
  });

  it('answers an oversized body with 422', async () => {
    const res = await client.request('POST', '/v1/auth/token', { rawBody: JSON.stringify({ client_id: 'x'.repeat(2_000_000), client_secret: 'y' }) });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('validation_error');
  });

  it('reports a missing field with a FastAPI-style loc and type, and redacts input under /v1/auth', async () => {
    const res = await client.post('/v1/auth/login', { email: 42 });
    expect(res.status).to.equal(422);
    const errors = res.body.detail.errors as { loc: unknown[]; type: string; input?: unknown }[];
    expect(errors).to.deep.include({ loc: ['body', 'password'], msg: "must have required property 'password'", type: 'missing' });
    const wrongType = errors.find((e) => e.loc.join('.') === 'body.email');
    expect(wrongType).to.include({ type: 'string_type', input: '[REDACTED]' });
  });

  it('serves the OpenAPI 3.1 document at version 1.7.0 without auth', async () => {
    const res = await client.get('/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.info.version).to.equal('1.7.0');
    expect(res.body.paths).to.include.keys('/v1/health', '/v1/flow', '/v1/auth/token', '/v1/.well-known/jwks.json');
  });

  it('serves the frozen 1.6.0 release byte for byte at its versioned URL, and lists it in the live document', async () => {
    const frozen = readFileSync(path.join(__dirname, '..', '..', 'api', 'openapi', 'releases', '1.6.0.json'), 'utf8');
    const res = await client.get('/v1/openapi/1.6.0.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.text).to.equal(frozen);
    expect(res.body.info.version).to.equal('1.6.0');
    const live = await client.get('/v1/openapi.json');
    expect(live.body.paths).to.include.keys('/v1/openapi/1.6.0.json');
    expect((await client.get('/v1/openapi/1.5.0.json')).status).to.equal(404);
  });

  it('answers an unknown query parameter on the public routes with the 422 their documents declare', async () => {
    for (const route of ['/v1/health', '/v1/openapi.json', '/v1/openapi/1.6.0.json', '/v1/.well-known/jwks.json']) {
      const res = await client.get(`${route}?unexpected=1`);
      expect(res.status, route).to.equal(422);
      expect(res.body.detail.code, route).to.equal('validation_error');
    }
  });

  it('refuses an empty filter value with 422, as the document\'s minLength says', async () => {
    const { token } = await buildIntegrator(client);
    const user = await buildUser({ scopes: ['backoffice:read'] });
    const backoffice = await loginAs(client, user);
    const { body: document } = await client.get('/v1/openapi.json');
    const cases: [string, string, string, string][] = [
      ['/v1/titles', 'status', 'get', token], ['/v1/titles', 'payer_document', 'get', token],
      ['/v1/backoffice/approval-queue', 'assignor_document', 'get', backoffice],
    ];
    for (const [route, name, method, bearer] of cases) {
      const parameter = document.paths[route][method].parameters.find((p: { name?: string }) => p.name === name);
      expect(parameter.schema.minLength, `${route} ${name}`).to.equal(1);
      const res = await client.get(`${route}?${name}=`, { token: bearer });
      expect(res.status, `${route} ${name}`).to.equal(422);
      expect(res.body.detail.errors[0].loc).to.deep.equal(['query', name]);
    }
  });

  it('describes the integration flow as data', async () => {
    const res = await client.get('/v1/flow');
    expect(res.status).to.equal(200);
    expect(res.body.steps.map((s: { name: string }) => s.name)).to.deep.equal(
      ['authenticate', 'products', 'simulate', 'create', 'approval', 'contract', 'disbursement', 'follow']);
  });

  it('sends a JSON reply with its type and exact byte length, and answers HEAD with the same headers and no body', async () => {
    const { url } = await sharedApi();
    const get = await fetch(`${url}/v1/flow`);
    const text = await get.text();
    expect(get.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Number(get.headers.get('content-length'))).to.equal(Buffer.byteLength(text)).and.to.be.greaterThan(100);
    expect(JSON.parse(text).version).to.equal('1.7.0');
    const head = await fetch(`${url}/v1/flow`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).to.equal(get.headers.get('content-length'));
    expect(await head.text()).to.equal('');
    expectPlatformHeaders(head.headers);
  });

  it('requires authentication for /v1/health/deep and reports database and Temporal', async () => {
    expect((await client.get('/v1/health/deep')).status).to.equal(401);
    const token = await loginAs(client, await buildUser({ scopes: ['backoffice:operate'] }));
    const res = await client.get('/v1/health/deep', { token });
    expect(res.body.dependencies.database.status).to.equal('ok');
    expect(res.body.dependencies.temporal.status).to.equal('ok');
  });

  it('answers /v1/health 503 degraded with the same body when Temporal is unreachable', async () => {
    const cut = new ApiClient((await anotherApi({ TEMPORAL_ADDRESS: '127.0.0.1:1' })).url);
    const res = await cut.get('/v1/health');
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ status: 'degraded', env: 'dev', version: '1.7.0' });
    expect(res.body.checks).to.deep.equal({ database: 'ok', temporal: 'down' });
    expect(res.body).to.not.have.property('detail');
  });

  it('sees the worker polling the task queue in /v1/health/deep', async () => {
    await sharedWorker();
    const token = await loginAs(client, await buildUser({ scopes: ['backoffice:operate'] }));
    const res = await client.get('/v1/health/deep', { token });
    expect(res.status).to.equal(200);
    expect(res.body.dependencies.worker).to.include({ status: 'ok', task_queue: testConfig().temporal.taskQueue });
    expect(res.body.dependencies.worker.pollers).to.be.greaterThan(0);
  });
});
