import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { anotherApi, sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, buildIntegrator, tokenFor } from '../support/factories';
import { cnpj } from '../support/documents';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository } from '../../db/repositories/products';
import { buildPricingIntegrator, receivable } from '../support/simulate';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { within } from '../support/within';

const listenerPids = async (): Promise<number[]> =>
  (await testDb().raw("select pid from pg_stat_activity where application_name = 'api-reference-cache' and query like 'LISTEN%'")).rows.map((r: { pid: number }) => r.pid);

/** Each api process caches credentials, policies, fee defaults and products; LISTEN/NOTIFY keeps them all current. */
describe('per-process reference caches', () => {
  let first: ApiClient;
  let second: ApiClient;
  before(async () => {
    first = new ApiClient((await sharedApi()).url);
    second = new ApiClient((await anotherApi()).url);
  });

  const discountOf = async (client: ApiClient, token: string, body: Record<string, unknown>) => {
    const res = await client.post('/v1/simulate', body, { token });
    expect(res.status, res.text).to.equal(200);
    return res.body.receivables.map((r: { present_value_discount: string }) => r.present_value_discount);
  };

  it('refuses a revoked credential\'s next request on another api process within 100 ms', async () => {
    const { credential, token } = await buildIntegrator(first);
    for (const client of [first, second, second]) expect((await client.get('/v1/auth/me', { token })).status).to.equal(200);
    await testDb()('api_credentials').where({ id: credential.id }).update({ revoked_at: new Date() });
    const ms = await within(100, async () => (await second.get('/v1/auth/me', { token })).status === 401);
    expect(ms).to.be.below(100);
    expect((await first.get('/v1/auth/me', { token })).body).to.deep.equal({ detail: 'invalid_client_credentials' });
  });

  it('still refuses a remembered token once it expires', async () => {
    // 2 s, not 1: `exp` is the issue second plus the lifetime, so a 1 s token issued late in its
    // second could expire before its first request (a quiet fresh-clone CI run saw it).
    const expiring = new ApiClient((await anotherApi({ TOKEN_TTL_SECONDS: '2' })).url);
    const token = await tokenFor(expiring, await buildCredential());
    expect((await expiring.get('/v1/auth/me', { token })).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect((await expiring.get('/v1/auth/me', { token })).body).to.deep.equal({ detail: 'token_expired' });
  });

  it('answers from memory: a change the triggers do not announce is only seen once the lifetime runs out', async () => {
    const shortLived = new ApiClient((await anotherApi({ REFERENCE_CACHE_TTL_SECONDS: '1' })).url);
    const { credential, token } = await buildIntegrator(first);
    expect((await shortLived.get('/v1/auth/me', { token })).status).to.equal(200);
    await testDb().transaction(async (trx) => {
      // Only this transaction's own update goes unannounced; the trigger stays on for everyone else.
      await trx.raw('set local session_replication_role = replica');
      await trx('api_credentials').where({ id: credential.id }).update({ revoked_at: new Date() });
    });
    expect((await shortLived.get('/v1/auth/me', { token })).status).to.equal(200);
    await within(2_000, async () => (await shortLived.get('/v1/auth/me', { token })).status === 401);
  });

  it('prices the next simulation on another api process with a changed policy, payer fee defaults and lists changed products', async () => {
    const { token, policy, originatorId } = await buildPricingIntegrator(first);
    const payer = cnpj();
    await testDb()('payers').insert({ id: uuidv7(), originator_id: originatorId, document: payer, name: 'Payer' });
    const body = { receivables: [receivable(), receivable({ payer_document: payer })] };
    // 10,000.00 for 30 days at the policy's 2.5 %: 250.00
    expect(await discountOf(second, token, body)).to.deep.equal(['250.00', '250.00']);
    expect(await discountOf(second, token, body)).to.deep.equal(['250.00', '250.00']);
    await testDb()('policies').where({ id: policy!.id }).update({ default_monthly_rate_pct: '3' });
    // at 3 %: 300.00
    expect(await within(100, async () => (await discountOf(second, token, body))[0] === '300.00')).to.be.below(100);
    await testDb()('payers').where({ originator_id: originatorId, document: payer }).update({ monthly_rate_pct: '1' });
    // the payer's own 1 %: 100.00
    await within(100, async () => (await discountOf(second, token, body))[1] === '100.00');

    const products = new ProductsRepository(testDb(), originatorId);
    const product = await products.create({
      name: 'Duplicatas', description: null, minMonthlyRatePct: new Dec('1'), maxMonthlyRatePct: new Dec('5'), minTermDays: 1, maxTermDays: 90,
      minValueBrl: Money.of('100.00'), maxValueBrl: Money.of('100000.00'), active: true,
    });
    const names = async () => (await second.get('/v1/products', { token })).body.items.map((p: { name: string }) => p.name);
    await within(100, async () => (await names()).includes('Duplicatas'));
    await testDb()('products').where({ id: product.id }).update({ active: false });
    await within(100, async () => (await names()).length === 0);
  });

  it('starts over after its LISTEN connection is lost: reconnects, and invalidation works again', async () => {
    const { token, policy } = await buildPricingIntegrator(first);
    const body = { receivables: [receivable()] };
    expect(await discountOf(second, token, body)).to.deep.equal(['250.00']);
    const before = await listenerPids();
    expect(before.length).to.be.at.least(2);
    await testDb().raw('select pg_terminate_backend(pid) from unnest(?::int[]) as pid', [before]);
    await within(5_000, async () => {
      const now = await listenerPids();
      return now.length >= before.length && now.every((pid) => !before.includes(pid));
    });
    // LISTEN has answered; the process learns it a moment later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await discountOf(second, token, body)).to.deep.equal(['250.00']);
    // Caching again: an unannounced change is not seen...
    await testDb().transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx('policies').where({ id: policy!.id }).update({ default_monthly_rate_pct: '2.8' });
    });
    expect(await discountOf(second, token, body)).to.deep.equal(['250.00']);
    // ...and an announced one is.
    await testDb()('policies').where({ id: policy!.id }).update({ default_monthly_rate_pct: '3' });
    expect(await within(100, async () => (await discountOf(second, token, body))[0] === '300.00')).to.be.below(100);
  });

  describe('the operation read integrators poll', () => {
    const readOn = async (client: ApiClient, token: string, id: string) => {
      const res = await client.get(`/v1/operations/${id}`, { token });
      expect(res.status, res.text).to.equal(200);
      return res.body;
    };
    const created = async () => {
      const integrator = await buildOperationsIntegrator(first);
      const res = await createDirect(first, integrator.token);
      expect(res.status, res.text).to.equal(201);
      return { ...integrator, id: res.body.id as string, titleId: res.body.titles[0].id as string };
    };

    it('shows a change of the operation or of one of its titles on another api process within 100 ms', async () => {
      const { token, id, titleId } = await created();
      for (let i = 0; i < 3; i += 1) await readOn(second, token, id);
      await testDb()('operations').where({ id }).update({ lifecycle_status: 'CANCELLED' });
      expect(await within(100, async () => (await readOn(second, token, id)).lifecycle_status === 'CANCELLED')).to.be.below(100);
      await testDb()('titles').where({ id: titleId }).update({ outstanding_balance: '1.00' });
      expect(await within(100, async () => (await readOn(second, token, id)).titles[0].outstanding_balance === '1.00')).to.be.below(100);
    });

    it('lists operations from the same kept reads: a change of one shows in the list on another api process within 100 ms', async () => {
      const { token, id, titleId } = await created();
      const listed = async () => {
        const res = await second.get('/v1/operations', { token });
        expect(res.status, res.text).to.equal(200);
        return res.body.items.find((op: { id: string }) => op.id === id);
      };
      for (let i = 0; i < 3; i += 1) await listed();
      await testDb()('titles').where({ id: titleId }).update({ outstanding_balance: '2.00' });
      expect(await within(100, async () => (await listed()).titles[0].outstanding_balance === '2.00')).to.be.below(100);
      await testDb()('operations').where({ id }).update({ lifecycle_status: 'CANCELLED' });
      expect(await within(100, async () => (await listed()).lifecycle_status === 'CANCELLED')).to.be.below(100);
    });

    it('keeps what a list renders: the read by id then answers it from memory, as the list does', async () => {
      const keeping = new ApiClient((await anotherApi({ REFERENCE_CACHE_TTL_SECONDS: '60' })).url);
      const { token, id } = await created();
      // The creation's own notifications must not land after the list has kept the read.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const listed = await keeping.get('/v1/operations', { token });
      expect(listed.body.items.map((op: { id: string }) => op.id)).to.include(id);
      await testDb().transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx('operations').where({ id }).update({ lifecycle_status: 'CANCELLED' });
      });
      expect((await readOn(keeping, token, id)).lifecycle_status).to.not.equal('CANCELLED');
      expect((await keeping.get('/v1/operations', { token })).body.items[0].lifecycle_status).to.not.equal('CANCELLED');
      expect((await readOn(first, token, id)).lifecycle_status).to.equal('CANCELLED');
    });

    it('answers another originator 404 for an operation cached for its owner', async () => {
      const { token, id } = await created();
      await readOn(second, token, id);
      const stranger = await buildIntegrator(first);
      const res = await second.get(`/v1/operations/${id}`, { token: stranger.token });
      expect(res.status).to.equal(404);
      expect(res.body.detail).to.equal('operation_not_found');
    });

    it('answers from memory: a change the triggers do not announce is only seen once the lifetime runs out', async () => {
      const shortLived = new ApiClient((await anotherApi({ REFERENCE_CACHE_TTL_SECONDS: '1' })).url);
      const { token, id } = await created();
      expect((await readOn(shortLived, token, id)).lifecycle_status).to.not.equal('CANCELLED');
      await testDb().transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx('operations').where({ id }).update({ lifecycle_status: 'CANCELLED' });
      });
      expect((await readOn(shortLived, token, id)).lifecycle_status).to.not.equal('CANCELLED');
      await within(2_000, async () => (await readOn(shortLived, token, id)).lifecycle_status === 'CANCELLED');
    });
  });
});
