import { expect } from 'chai';
import { anotherApi, sharedApi } from '../support/stack';
import { ApiClient, HttpResponse } from '../support/http';
import { buildCredential, buildUser, tokenFor } from '../support/factories';

/** Issue #13: the HTTP posture of every response, and no cache for responses carrying secrets. */
describe('security headers', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });

  const noStore = (res: HttpResponse, what: string) => {
    expect(res.status, `${what}: ${res.text}`).to.be.within(200, 201);
    expect(res.headers.get('cache-control'), what).to.equal('no-store');
  };

  it('every response says nosniff, forbids framing and carries a CSP that allows nothing; no HSTS unless configured', async () => {
    for (const res of [await client.get('/v1/health'), await client.get('/v1/nowhere'), await client.post('/v1/auth/token', {})]) {
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('content-security-policy')).to.include("default-src 'none'").and.to.include("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security')).to.equal(null);
      expect(res.headers.get('x-powered-by')).to.equal(null);
    }
    expect((await client.get('/v1/health')).headers.get('cache-control')).not.to.equal('no-store');
  });

  it('sends HSTS when the deployment says it is behind TLS', async () => {
    const tls = new ApiClient((await anotherApi({ HSTS_MAX_AGE_SECONDS: '31536000' })).url);
    expect((await tls.get('/v1/health')).headers.get('strict-transport-security')).to.equal('max-age=31536000; includeSubDomains');
  });

  it('token, login, webhook registration and rotate-secret answers are not stored by any cache', async () => {
    const credential = await buildCredential();
    noStore(await client.post('/v1/auth/token', { client_id: credential.clientId, client_secret: credential.secret }), 'token');
    const user = await buildUser();
    noStore(await client.post('/v1/auth/login', { email: user.email, password: user.password }), 'login');
    const token = await tokenFor(client, credential);
    const registered = await client.post('/v1/webhooks', { url: 'https://public.test/no-store', events: ['operation.paid'] }, { token });
    noStore(registered, 'webhook registration');
    noStore(await client.post(`/v1/webhooks/${registered.body.id}/rotate-secret`, {}, { token }), 'rotate-secret');
    // A refusal on those routes carries nothing, but is not cached either.
    expect((await client.post('/v1/auth/token', { client_id: 'zk_sbx_nobody', client_secret: 'x' })).headers.get('cache-control')).to.equal('no-store');
  });
});
