import { expect } from 'chai';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository } from '../../db/repositories/products';
import { DEV_SEED } from '../../db/seeds/dev-seed';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, tokenFor } from '../support/factories';

function buildProduct(originatorId: string, name: string, active = true) {
  return new ProductsRepository(testDb(), originatorId).create({
    name, description: null, minMonthlyRatePct: new Dec('1.25'), maxMonthlyRatePct: new Dec(4), minTermDays: 5, maxTermDays: 90,
    minValueBrl: Money.of('500'), maxValueBrl: Money.of('250000.5'), active,
  });
}

describe('GET /v1/products', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });

  it('lists the originator\'s active products by name with their ranges, paginated, with the total before pagination', async () => {
    const { token, originatorId } = await buildIntegrator(client);
    const [b, a] = [await buildProduct(originatorId, 'B product'), await buildProduct(originatorId, 'A product')];
    await buildProduct(originatorId, 'C product');
    await buildProduct(originatorId, 'retired', false);
    const first = await client.get('/v1/products?limit=2', { token });
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ total: 3, limit: 2, offset: 0 });
    expect(first.body.items).to.deep.equal([a, b].map((p) => ({
      product_id: p.id, name: p.name, description: null, min_monthly_rate_pct: 1.25, max_monthly_rate_pct: 4,
      min_term_days: 5, max_term_days: 90, min_value_brl: '500.00', max_value_brl: '250000.50', nfe_xml: 'optional',
      payer_confirmation: 'none', payer_confirmation_deadline_days: 10, nfe_beyond_consult_age: 'refuse',
    })));
    const second = await client.get('/v1/products?limit=2&offset=2', { token });
    expect(second.body.items.map((p: { name: string }) => p.name)).to.deep.equal(['C product']);
    expect(second.body.total).to.equal(3);
  });

  it('shows another originator none of them', async () => {
    const owner = await buildIntegrator(client);
    await buildProduct(owner.originatorId, 'Private product');
    const stranger = await buildIntegrator(client);
    const res = await client.get('/v1/products', { token: stranger.token });
    expect(res.body).to.deep.include({ items: [], total: 0 });
  });

  it('serves the dev seed\'s product to originator A', async () => {
    const a = DEV_SEED.originators[0];
    const token = await tokenFor(client, { id: a.credentialId, originatorId: a.id, clientId: a.clientId, secret: a.secret, scopes: [] });
    const res = await client.get('/v1/products', { token });
    expect(res.body.items).to.have.length(1);
    expect(res.body.items[0]).to.include({ name: 'NF-e anticipation', min_term_days: 1, max_term_days: 180 });
  });

  it('accepts simulation:create or operation:read, and refuses a token with neither', async () => {
    for (const scopes of [['simulation:create'], ['operation:read']]) {
      const { token } = await buildIntegrator(client, { scopes });
      expect((await client.get('/v1/products', { token })).status).to.equal(200);
    }
    const { token } = await buildIntegrator(client, { scopes: ['stock:read'] });
    const res = await client.get('/v1/products', { token });
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.include({ code: 'scope_insufficient' });
    expect(res.body.detail.accepted_alternatives).to.deep.equal([['simulation:create'], ['operation:read']]);
  });

  it('refuses limit outside 1..200 with a validation_error', async () => {
    const { token } = await buildIntegrator(client);
    for (const limit of [0, 201]) {
      const res = await client.get(`/v1/products?limit=${limit}`, { token });
      expect(res.status).to.equal(422);
      expect(res.body.detail.errors[0].loc).to.deep.equal(['query', 'limit']);
    }
  });
});
