import { expect } from 'chai';
import net from 'node:net';
import * as client from 'openid-client';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { anotherApi, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, TestCredential } from '../support/factories';
import { rejectionOf } from '../support/rejection';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Issue #24: the OAuth2 libraries integrators use, unmodified (their documented options only; plain
 * HTTP is allowed because the test api is on 127.0.0.1): discovery, a token, a protected call, and
 * refusals reported as the RFCs name them.
 */
describe('OAuth2 client libraries against the api (RFC 8414, 6749, 6750)', () => {
  let issuer: URL;
  let credential: TestCredential;
  before(async () => {
    const port = await freePort();
    // The issuer is the api's public address: an api whose PUBLIC_URL is where the client reaches it.
    const api = await anotherApi({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    issuer = new URL(api.url);
    credential = await buildCredential({ scopes: ['operation:read', 'stock:read', 'simulation:create'] });
  });

  describe('openid-client 6', () => {
    const configure = (secret: string) => client.discovery(issuer, credential.clientId, secret, undefined, {
      algorithm: 'oauth2', execute: [client.allowInsecureRequests],
    });

    it('discovers the server, gets a token for a scope subset and calls a protected route with it', async () => {
      const config = await configure(credential.secret);
      expect(config.serverMetadata()).to.include({ issuer: issuer.href.replace(/\/$/, ''), token_endpoint: new URL('/v1/auth/token', issuer).href });
      expect(config.serverMetadata().grant_types_supported).to.deep.equal(['client_credentials']);
      const tokens = await client.clientCredentialsGrant(config, { scope: 'operation:read stock:read' });
      expect(tokens).to.include({ token_type: 'bearer', expires_in: 900, scope: 'operation:read stock:read' });
      const res = await client.fetchProtectedResource(config, tokens.access_token, new URL('/v1/operations?limit=1', issuer), 'GET');
      expect(res.status).to.equal(200);
      expect(await res.json()).to.include({ total: 0 });
    });

    it('reports a wrong secret (sent in the body, its default) as invalid_client', async () => {
      const config = await configure('sk_not_the_secret');
      const err = await rejectionOf(client.clientCredentialsGrant(config));
      expect(err).to.be.instanceOf(client.ResponseBodyError);
      expect(err).to.include({ error: 'invalid_client', error_description: 'invalid_client_credentials', status: 401 });
    });

    it('reports a refused token on a protected route as the Bearer invalid_token challenge', async () => {
      const config = await configure(credential.secret);
      const err = await rejectionOf(client.fetchProtectedResource(config, 'not-a-token', new URL('/v1/operations', issuer), 'GET'));
      expect(err).to.be.instanceOf(client.WWWAuthenticateChallengeError);
      const [challenge] = (err as client.WWWAuthenticateChallengeError).cause;
      expect(challenge.scheme).to.equal('bearer');
      expect(challenge.parameters).to.include({ error: 'invalid_token', error_description: 'invalid_token', realm: 'receivables-anticipation-api' });
    });
  });

  describe('oauth4webapi 3', () => {
    const insecure = { [oauth.allowInsecureRequests]: true };
    const server = async () => oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));

    it('discovers the server, gets a token with the client in the body and calls a protected route with it', async () => {
      const as = await server();
      expect(as.jwks_uri).to.equal(new URL('/v1/.well-known/jwks.json', issuer).href);
      expect(as.token_endpoint_auth_methods_supported).to.deep.equal(['client_secret_basic', 'client_secret_post']);
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretPost(credential.secret), new URLSearchParams(), insecure);
      const tokens = await oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response);
      expect(tokens.scope).to.equal('operation:read stock:read simulation:create');
      const res = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL('/v1/products', issuer), undefined, undefined, insecure);
      expect(res.status).to.equal(200);
    });

    it('reports a wrong secret sent in the body as the invalid_client error of the body (RFC 6749 §5.2)', async () => {
      const as = await server();
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretPost('sk_not_the_secret'), new URLSearchParams(), insecure);
      const err = await rejectionOf(oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response));
      expect(err).to.be.instanceOf(oauth.ResponseBodyError);
      expect(err).to.include({ error: 'invalid_client', error_description: 'invalid_client_credentials', status: 401 });
    });

    it('reports a wrong secret in HTTP Basic as invalid_client, from the Basic challenge RFC 6749 §5.2 requires', async () => {
      const as = await server();
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretBasic('sk_not_the_secret'), new URLSearchParams(), insecure);
      const err = await rejectionOf(oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response));
      expect(err).to.be.instanceOf(oauth.WWWAuthenticateChallengeError);
      const [challenge] = (err as oauth.WWWAuthenticateChallengeError).cause;
      expect(challenge.scheme).to.equal('basic');
      expect(challenge.parameters).to.include({ error: 'invalid_client', error_description: 'invalid_client_credentials' });
      expect(await response.json()).to.deep.equal({ detail: 'invalid_client_credentials', error: 'invalid_client', error_description: 'invalid_client_credentials' });
    });

    it('reports a scope the credential lacks as invalid_scope, and keeps the contract\'s detail beside it', async () => {
      const as = await server();
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretBasic(credential.secret), { scope: 'contract:send' }, insecure);
      const body = (await response.clone().json()) as { detail: { code: string } };
      expect(body.detail).to.include({ code: 'scope_not_allowed' });
      const err = await rejectionOf(oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response));
      expect(err).to.include({ error: 'invalid_scope', status: 403 });
    });

    const tokenWith = async (scope: string) => {
      const as = await server();
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretBasic(credential.secret), { scope }, insecure);
      return (await oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response)).access_token;
    };
    const challengeOf = async (token: string, path: string) => {
      const err = await rejectionOf(oauth.protectedResourceRequest(token, 'GET', new URL(path, issuer), undefined, undefined, insecure));
      expect(err, path).to.be.instanceOf(oauth.WWWAuthenticateChallengeError);
      expect((err as oauth.WWWAuthenticateChallengeError).status).to.equal(403);
      const challenges = (err as oauth.WWWAuthenticateChallengeError).cause;
      expect(challenges).to.have.length(1);
      return challenges[0];
    };

    it('reads a scope refusal as the insufficient_scope challenge naming the scope the route needs (RFC 6750 §3.1)', async () => {
      const challenge = await challengeOf(await tokenWith('stock:read'), '/v1/operations');
      expect(challenge.scheme).to.equal('bearer');
      expect(challenge.parameters).to.deep.equal({
        realm: 'receivables-anticipation-api', error: 'insufficient_scope', error_description: 'scope_insufficient', scope: 'operation:read',
      });
    });

    it('names the first of a route\'s alternatives in the challenge, as the body\'s `required` does', async () => {
      const token = await tokenWith('operation:read');
      const res = await new ApiClient(issuer.href.replace(/\/$/, '')).get('/v1/stock', { token });
      expect(res.body.detail).to.include({ code: 'scope_insufficient' });
      expect(res.body.detail.required).to.deep.equal(['stock:read']);
      expect((await challengeOf(token, '/v1/stock')).parameters.scope).to.equal('stock:read');
    });
  });

  describe('jose', () => {
    it('verifies an access token with the JWKS and the metadata\'s issuer as an RFC 9068 `at+jwt`, its scopes in `scope`', async () => {
      const insecure = { [oauth.allowInsecureRequests]: true };
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
      const response = await oauth.clientCredentialsGrantRequest(as, { client_id: credential.clientId }, oauth.ClientSecretPost(credential.secret), { scope: 'stock:read operation:read' }, insecure);
      const tokens = await oauth.processClientCredentialsResponse(as, { client_id: credential.clientId }, response);
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(as.jwks_uri!)), {
        issuer: as.issuer, audience: testConfig().jwt.audience, typ: 'at+jwt', algorithms: ['RS256'], requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      expect(protectedHeader).to.include({ typ: 'at+jwt', alg: 'RS256' });
      expect(payload).to.include({ iss: issuer.href.replace(/\/$/, ''), scope: 'stock:read operation:read', token_type: 'client' });
      expect(payload.scopes).to.deep.equal(['stock:read', 'operation:read']);
    });
  });

  it('sends the bare Bearer challenge when no credential came, as RFC 6750 §3.1 says', async () => {
    const res = await new ApiClient(issuer.href.replace(/\/$/, '')).get('/v1/operations');
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.equal({ detail: 'not_authenticated' });
    expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="receivables-anticipation-api"');
  });
});
