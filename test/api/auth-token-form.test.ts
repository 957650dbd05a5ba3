import { expect } from 'chai';
import { startApi, RunningApi } from '../../api/server';
import { sharedApi, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, TestCredential } from '../support/factories';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** RFC 6749 §2.3.1: each part form-urlencoded, then `id:secret` in base64. */
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('POST /v1/auth/token as standard OAuth2 clients send it (client credentials grant)', () => {
  let client: ApiClient;
  let credential: TestCredential;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    credential = await buildCredential();
  });

  const exchange = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    client.request('POST', '/v1/auth/token', { rawBody: form(fields), headers: { ...FORM, ...headers } });

  async function expectUsableToken(res: Awaited<ReturnType<typeof exchange>>, scopes = credential.scopes) {
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ token_type: 'bearer', expires_in: 900 });
    expect(res.body.scopes).to.deep.equal(scopes);
    const me = await client.get('/v1/auth/me', { token: res.body.access_token });
    expect(me.body).to.include({ client_id: credential.clientId, token_type: 'client' });
  }

  it('issues the same token for a form body with the client in the body, as for JSON', async () => {
    await expectUsableToken(await exchange({ grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.secret }));
    const json = await client.post('/v1/auth/token', { grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.secret });
    await expectUsableToken(json);
  });

  it('issues it with the client in HTTP Basic, and honours an OAuth scope subset', async () => {
    await expectUsableToken(await exchange({ grant_type: 'client_credentials' }, { Authorization: basic(credential.clientId, credential.secret) }));
    await expectUsableToken(
      await exchange({ grant_type: 'client_credentials', scope: 'stock:read operation:read' }, { Authorization: basic(credential.clientId, credential.secret) }),
      ['stock:read', 'operation:read'],
    );
  });

  it('answers the JSON exchange\'s codes: wrong secret, missing client, scope not allowed', async () => {
    const wrong = await exchange({ grant_type: 'client_credentials' }, { Authorization: basic(credential.clientId, 'not-the-secret') });
    expect([wrong.status, wrong.body]).to.deep.equal([401, { detail: 'invalid_client_credentials', error: 'invalid_client', error_description: 'invalid_client_credentials' }]);
    expect(wrong.headers.get('www-authenticate')).to.equal('Basic realm="receivables-anticipation-api", error="invalid_client", error_description="invalid_client_credentials"');
    const missing = await exchange({ grant_type: 'client_credentials', client_id: credential.clientId });
    expect([missing.status, missing.body]).to.deep.equal([401, { detail: 'missing_client_credentials', error: 'invalid_client', error_description: 'missing_client_credentials' }]);
    const scope = await exchange({ grant_type: 'client_credentials', scope: 'backoffice:read' }, { Authorization: basic(credential.clientId, credential.secret) });
    expect(scope.status).to.equal(403);
    expect(scope.body.detail.code).to.equal('scope_not_allowed');
  });

  it('refuses another grant, a missing grant_type, and a client sent both ways, with inputs redacted', async () => {
    const password = await exchange({ grant_type: 'password', client_id: credential.clientId, client_secret: credential.secret });
    expect(password.status).to.equal(422);
    expect(password.body).to.include({ error: 'unsupported_grant_type', error_description: 'Request validation failed' });
    expect(password.body.detail.errors).to.deep.include({ loc: ['body', 'grant_type'], msg: 'must be equal to constant', type: 'literal_error', input: '[REDACTED]' });
    const none = await exchange({ client_id: credential.clientId, client_secret: credential.secret });
    expect(none.body.detail.errors.map((e: { loc: unknown[] }) => e.loc)).to.deep.equal([['body', 'grant_type']]);
    const both = await exchange({ grant_type: 'client_credentials', client_secret: credential.secret }, { Authorization: basic(credential.clientId, credential.secret) });
    expect(both.status).to.equal(422);
    expect(both.body.detail.errors[0]).to.deep.include({ loc: ['body', 'client_secret'], type: 'value_error' });
  });

  // The route reads the body the validator checked: one of the document's two, never none.
  it('answers a request with no body at all as invalid_request, whether the client is in HTTP Basic or nowhere', async () => {
    for (const headers of [{ Authorization: basic(credential.clientId, credential.secret) }, {}] as Record<string, string>[]) {
      const bare = await client.request('POST', '/v1/auth/token', { headers });
      expect(bare.status, bare.text).to.equal(422);
      expect(bare.body).to.deep.include({ error: 'invalid_request', error_description: 'Unsupported content type' });
      expect(bare.body.detail.errors).to.deep.equal([{ loc: ['body'], msg: 'Content-Type must be application/json', type: 'model_attributes_type' }]);
    }
  });
});

describe('the token exchange\'s security in the document, and its rate limit across forms', () => {
  let api: RunningApi;
  let client: ApiClient;
  before(async () => {
    api = await startApi(testConfig({ PUBLIC_URL: 'https://api.example.test', TRUST_PROXY: 'true', RATE_LIMIT_AUTH_TOKEN_RPM: '2' }));
    client = new ApiClient(api.url);
  });
  after(async () => { await api.close(); });

  it('states the client credentials flow at PUBLIC_URL, Basic on the token route, and no OAuth2 flow for login', async () => {
    const document = (await client.get('/v1/openapi.json')).body;
    const schemes = document.components.securitySchemes;
    expect(schemes.clientCredentials.flows.clientCredentials.tokenUrl).to.equal('https://api.example.test/v1/auth/token');
    expect(schemes.clientBasic).to.include({ type: 'http', scheme: 'basic' });
    expect(schemes.userSession).to.include({ type: 'http', scheme: 'bearer' });
    const token = document.paths['/v1/auth/token'].post;
    expect(token.security).to.deep.equal([{}, { clientBasic: [] }]);
    expect(Object.keys(token.requestBody.content)).to.deep.equal(['application/json', 'application/x-www-form-urlencoded']);
  });

  it('counts JSON, form and Basic exchanges in one per-address budget', async () => {
    const credential = await buildCredential();
    const from = { 'X-Forwarded-For': '198.51.100.77' };
    const json = await client.post('/v1/auth/token', { client_id: credential.clientId, client_secret: credential.secret }, { headers: from });
    const viaForm = await client.request('POST', '/v1/auth/token', {
      rawBody: form({ grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.secret }), headers: { ...FORM, ...from },
    });
    const viaBasic = await client.request('POST', '/v1/auth/token', {
      rawBody: form({ grant_type: 'client_credentials' }), headers: { ...FORM, ...from, Authorization: basic(credential.clientId, credential.secret) },
    });
    expect([json.status, viaForm.status, viaBasic.status]).to.deep.equal([200, 200, 429]);
    expect(viaBasic.body.detail).to.include({ code: 'rate_limit_exceeded', scope: 'ip', limit_rpm: 2 });
  });
});
