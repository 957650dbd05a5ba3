import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { EVENT_TYPES } from '../../domain/events';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { expectInvisibleToOtherTenant } from '../support/tenancy';

describe('webhook registration', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildIntegrator(client));
  });

  const register = (body: Record<string, unknown>, options: { token?: string; headers?: Record<string, string> } = {}) =>
    client.post('/v1/webhooks', body, { token, ...options });

  it('registers a subscription, shows the secret once and the events under both names', async () => {
    const res = await register({ url: 'https://public.test/hooks', events: ['operation.approved', 'title.paid', 'operation.approved'], description: 'ERP' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ url: 'https://public.test/hooks', description: 'ERP', previous_secret_expires_at: null });
    expect(res.body.events).to.deep.equal(['operation.approved', 'title.paid']);
    expect(res.body.event_types).to.deep.equal(res.body.events);
    expect(res.body.hmac_secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(res.body.created_at)).to.be.closeTo(Date.now(), 60_000);

    const list = await client.get('/v1/webhooks', { token });
    const listed = list.body.items.find((w: { id: string }) => w.id === res.body.id);
    const { hmac_secret: _secret, ...shown } = res.body;
    expect(listed).to.deep.equal(shown);
    expect(list.body.total).to.be.at.least(1);
  });

  it('gives the secret as null when an idempotent replay answers', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { url: 'https://public.test/replay', events: ['operation.paid'] };
    const first = await register(body, { headers });
    const replay = await register(body, { headers });
    expect(first.body.hmac_secret).to.be.a('string');
    expect(replay.status).to.equal(201);
    expect(replay.body).to.deep.equal({ ...first.body, hmac_secret: null });
  });

  it('refuses an unknown event kind as a schema failure', async () => {
    const res = await register({ url: 'https://public.test/hooks', events: ['operation.contract_sent'] });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('validation_error');
    expect(res.body.detail.errors[0]).to.include({ type: 'enum' }).and.to.have.deep.property('loc', ['body', 'events', 0]);
  });

  it('refuses an empty event list and a missing url', async () => {
    const res = await register({ events: [] });
    expect(res.status).to.equal(422);
    const locs = res.body.detail.errors.map((e: { loc: unknown[] }) => e.loc.join('.'));
    expect(locs).to.include.members(['body.url', 'body.events']);
  });

  describe('URL guard', () => {
    const cases: [string, string][] = [
      ['http://public.test/hooks', 'url_scheme_not_https'],
      ['ftp://public.test/hooks', 'url_scheme_not_https'],
      ['public.test/hooks', 'url_malformed'],
      ['https://', 'url_malformed'],
      ['https://nowhere.test/hooks', 'url_host_unresolvable'],
      ['https://ten.test/hooks', 'ip_private'],
      ['https://one-seven-two.test/hooks', 'ip_private'],
      ['https://one-nine-two.test/hooks', 'ip_private'],
      ['https://ula.test/hooks', 'ip_private'],
      ['https://half-private.test/hooks', 'ip_private'],
      ['https://loopback.test/hooks', 'ip_loopback'],
      ['https://mapped-loopback.test/hooks', 'ip_loopback'],
      ['https://127.0.0.1/hooks', 'ip_loopback'],
      ['https://[::1]/hooks', 'ip_loopback'],
      ['https://link-local.test/hooks', 'ip_link_local'],
      ['https://169.254.169.254/latest/meta-data', 'ip_link_local'],
      ['https://reserved.test/hooks', 'ip_reserved'],
      ['https://0.0.0.0/hooks', 'ip_reserved'],
    ];
    for (const [url, code] of cases) {
      it(`refuses ${url} with ${code}`, async () => {
        const res = await register({ url, events: ['operation.paid'] });
        expect(res.status).to.equal(422);
        expect(res.body).to.deep.equal({ detail: { code, message: `webhook url rejected: ${code}` } });
      });
    }

    it('accepts a host whose every address is public', async () => {
      expect((await register({ url: 'https://public.test:8443/in', events: ['operation.paid'] })).status).to.equal(201);
    });
  });

  describe('scopes', () => {
    it('lets webhook:read list but not register', async () => {
      const reader = await buildIntegrator(client, { scopes: ['webhook:read'] });
      expect((await client.get('/v1/webhooks', { token: reader.token })).status).to.equal(200);
      const res = await client.post('/v1/webhooks', { url: 'https://public.test/x', events: ['operation.paid'] }, { token: reader.token });
      expect(res.status).to.equal(403);
      expect(res.body.detail).to.include({ code: 'scope_insufficient' });
    });

    it('refuses a token without any webhook scope', async () => {
      const other = await buildIntegrator(client, { scopes: ['operation:read'] });
      expect((await client.get('/v1/webhooks', { token: other.token })).status).to.equal(403);
    });
  });

  describe('one subscription', () => {
    let id: string;
    let secret: string;
    beforeEach(async () => {
      const res = await register({ url: 'https://public.test/one', events: ['operation.paid'] });
      ({ id, hmac_secret: secret } = res.body);
    });

    it('is invisible to another originator, who cannot delete or rotate it either', async () => {
      await expectInvisibleToOtherTenant(client, { id, itemPath: (w) => `/v1/webhooks/${w}/deliveries`, listPath: '/v1/webhooks', notFoundCode: 'webhook_not_found' });
      const stranger = await buildIntegrator(client);
      expect((await client.delete(`/v1/webhooks/${id}`, { token: stranger.token })).body).to.deep.equal({ detail: 'webhook_not_found' });
      expect((await client.post(`/v1/webhooks/${id}/rotate-secret`, undefined, { token: stranger.token })).status).to.equal(404);
      expect((await client.get(`/v1/webhooks/${id}/deliveries`, { token })).status).to.equal(200);
    });

    it('starts with an empty delivery log', async () => {
      const res = await client.get(`/v1/webhooks/${id}/deliveries?limit=10`, { token });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ items: [], total: 0, limit: 10, offset: 0 });
    });

    it('is deleted with 204 and then gone', async () => {
      const res = await client.delete(`/v1/webhooks/${id}`, { token });
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expect((await client.get('/v1/webhooks?limit=200', { token })).body.items.map((w: { id: string }) => w.id)).to.not.include(id);
      expect((await client.delete(`/v1/webhooks/${id}`, { token })).status).to.equal(404);
      expect((await client.get(`/v1/webhooks/${id}/deliveries`, { token })).body).to.deep.equal({ detail: 'webhook_not_found' });
    });

    it('rotates its secret, keeping the previous one valid for 24 hours', async () => {
      const res = await client.post(`/v1/webhooks/${id}/rotate-secret`, undefined, { token });
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(id);
      expect(res.body.hmac_secret).to.match(/^whsec_/).and.not.equal(secret);
      expect(Date.parse(res.body.previous_secret_expires_at) - Date.now()).to.be.closeTo(24 * 3_600_000, 60_000);
    });

    it('cuts the overlap short with previous_secret_expires_in_seconds: 0 ends the old secret at once, N keeps it N seconds', async () => {
      const hour = await client.post(`/v1/webhooks/${id}/rotate-secret`, { previous_secret_expires_in_seconds: 3600 }, { token });
      expect(hour.status, hour.text).to.equal(200);
      expect(Date.parse(hour.body.previous_secret_expires_at) - Date.now()).to.be.closeTo(3_600_000, 60_000);
      const now = await client.post(`/v1/webhooks/${id}/rotate-secret`, { previous_secret_expires_in_seconds: 0 }, { token });
      expect(now.status, now.text).to.equal(200);
      expect(now.body.previous_secret_expires_at).to.equal(null);
      const stored = await testDb()('webhook_subscriptions').where({ id }).first('previous_secret', 'previous_secret_expires_at');
      expect(stored).to.deep.equal({ previous_secret: null, previous_secret_expires_at: null });
      for (const bad of [-1, 86_401, 1.5, '60', null]) {
        const res = await client.post(`/v1/webhooks/${id}/rotate-secret`, { previous_secret_expires_in_seconds: bad }, { token });
        expect(res.status, `${JSON.stringify(bad)}: ${res.text}`).to.equal(422);
        expect(res.body.detail.errors[0].loc).to.deep.equal(['body', 'previous_secret_expires_in_seconds']);
      }
      const documented = (await client.get('/v1/openapi.json')).body.paths['/v1/webhooks/{webhook_id}/rotate-secret'].post.requestBody;
      expect(documented.required).to.equal(false);
      expect(documented.content['application/json'].schema.properties.previous_secret_expires_in_seconds).to.include({ minimum: 0, maximum: 86_400, default: 86_400 });
    });

    it('answers 404 for a delivery it does not have, and 422 for an id that is not a UUID', async () => {
      const missing = await client.post(`/v1/webhooks/${id}/deliveries/${randomUUID()}/retry`, undefined, { token });
      expect(missing.body).to.deep.equal({ detail: 'webhook_delivery_not_found' });
      expect((await client.get('/v1/webhooks/not-a-uuid/deliveries', { token })).status).to.equal(422);
    });
  });

  it('documents every route with its scopes and each event payload in the webhooks section', async () => {
    const doc = (await client.get('/v1/openapi.json')).body;
    expect(doc.paths['/v1/webhooks'].get.security).to.deep.include({ clientCredentials: ['webhook:read'] });
    expect(doc.paths['/v1/webhooks'].post.security).to.deep.include({ clientCredentials: ['webhook:write'] });
    expect(Object.keys(doc.paths['/v1/webhooks/{webhook_id}'].delete.responses)).to.include.members(['204', '404']);
    expect(doc.paths).to.include.keys('/v1/webhooks/{webhook_id}/rotate-secret', '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry');
    expect(Object.keys(doc.webhooks)).to.have.members([...EVENT_TYPES]);
    const approved = doc.webhooks['operation.approved'].post.requestBody.content['application/json'].schema;
    expect(approved.required).to.have.members(['event_type', 'event_id', 'occurred_at', 'data']);
    expect(approved.properties.data.required).to.include.members(['operation_id', 'display_number', 'lifecycle_status', 'approved_at']);
  });
});
