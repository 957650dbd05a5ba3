import { expect } from 'chai';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository } from '../../db/repositories/products';
import { testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTest } from '../support/operations';
import { buildPolicy, buildPricingIntegrator, dueIn, receivable, receivableWithout } from '../support/simulate';
import { created, refused, rowsOf } from '../support/operation-checks';

const buildProduct = (originatorId: string) => new ProductsRepository(testDb(), originatorId).create({
  name: 'Direct product', description: null, minMonthlyRatePct: new Dec(1), maxMonthlyRatePct: new Dec(4), minTermDays: 1, maxTermDays: 180,
  minValueBrl: Money.of('100'), maxValueBrl: Money.of('100000'), active: true,
});

/** Contract "Simulation and direct-creation codes", external_id uniqueness and the optional fields of direct creation. */
describe('POST /v1/operations/direct: rules and codes', () => {
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => ({ client, token, originatorId } = await startOperationsTest()));

  it('gives the same 422 as /v1/simulate for every value and vocabulary code, and writes nothing', async () => {
    const cases: [unknown[], Record<string, unknown>][] = [
      [[receivable({ external_id: 'NF-77', requested_net_future_value: '1500.00', net_future_value: 1000 })], {}],
      [[receivable(), receivable()], { fees: { total_liquid_value_brl: '20000.01' } }],
      [[receivable({ external_id: 'equal', fixed_discount_brl: '10000.00', monthly_rate_pct: 0 })], {}],
      [[receivable({ net_future_value: '10000.00', net_face_value: '9999.99' })], {}],
      [[receivable({ gross_future_value: '12000.00' })], {}],
      [[receivable({ gross_future_value: 12000, gross_future_value_deductions: '1999.99' })], {}],
      [[receivableWithout(['requested_net_future_value'], { requested_advance_value: '100.00', requested_net_future_value_percent: 50 })], {}],
      [[receivable({ gross_face_value: '9000.00' })], {}],
    ];
    const before = await rowsOf(originatorId);
    for (const [receivables, extra] of cases) {
      const simulated = await client.post('/v1/simulate', { receivables, ...extra }, { token });
      const direct = await createDirect(client, token, directBody({ receivables, ...extra }));
      expect(simulated.status, simulated.text).to.equal(422);
      expect(direct.status, direct.text).to.equal(422);
      expect(direct.body, simulated.text).to.deep.equal(simulated.body);
    }
    expect(await rowsOf(originatorId)).to.deep.equal(before);
  });

  it('answers originator_policy_not_configured when the originator has no policy', async () => {
    const { token: unconfigured } = await buildPricingIntegrator(client, { policy: null });
    expect(await refused(client, unconfigured, directBody(), 422)).to.equal('originator_policy_not_configured');
  });

  it('refuses more receivables than the policy allows with too_many_receivables_max_<N>, as simulation does', async () => {
    const { token: own } = await buildOperationsIntegrator(client, { maxReceivablesPerOperation: 2 });
    const three = [receivable(), receivable(), receivable()];
    expect(await refused(client, own, directBody({ receivables: three }), 422)).to.equal('too_many_receivables_max_2');
    expect((await client.post('/v1/simulate', { receivables: three }, { token: own })).body).to.deep.equal({ detail: 'too_many_receivables_max_2' });
    await created(client, own, directBody({ receivables: three.slice(1) }));
  });

  describe('CET_OUT_OF_BOUNDS (policy range 2.6%..2.7% a month)', () => {
    let own: string;
    before(async () => {
      ({ token: own } = await buildOperationsIntegrator(client, { minCetMonthlyPct: new Dec('2.6'), maxCetMonthlyPct: new Dec('2.7') }));
    });
    // 10,000.00 for 30 days: 2.5% → 250.00 → CET 10000/9750 − 1 = 2.5641%; 2.6% → 2.6694%; 3% → 3.0928%
    const finding = (pct: number, side: 'below' | 'above') => ({
      code: 'CET_OUT_OF_BOUNDS', message: `Monthly CET ${pct}% is ${side} the policy range 2.6%..2.7%`, scope: 'operation',
      cet_monthly_pct: pct, min_cet_monthly_pct: 2.6, max_cet_monthly_pct: 2.7,
    });

    it('refuses creation below or above the range with 422, where simulation only advises with a 200', async () => {
      for (const [rate, pct, side] of [[undefined, 2.5641, 'below'], [3, 3.0928, 'above']] as const) {
        const receivables = [receivable(rate === undefined ? {} : { monthly_rate_pct: rate })];
        expect(await refused(client, own, directBody({ receivables }), 422)).to.deep.equal(finding(pct, side));
        const simulated = await client.post('/v1/simulate', { receivables }, { token: own });
        expect(simulated.status).to.equal(200);
        expect(simulated.body.warnings).to.deep.equal([finding(pct, side)]);
      }
    });

    it('creates within the range', async () => {
      const op = await created(client, own, directBody({ receivables: [receivable({ monthly_rate_pct: 2.6 })] }));
      expect(op.opr_present_value_discount).to.equal('260.00');
    });
  });

  describe('external_id', () => {
    it('refuses a repeated external_id within one operation with 422 at its second position, writing nothing', async () => {
      const before = await rowsOf(originatorId);
      const res = await createDirect(client, token, directBody({ receivables: [receivable({ external_id: 'NF-1' }), receivable({ external_id: 'NF-2' }), receivable({ external_id: 'NF-1' })] }));
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('validation_error');
      expect(res.body.detail.errors).to.have.length(1);
      expect(res.body.detail.errors[0]).to.include({ type: 'value_error', input: 'NF-1' });
      expect(res.body.detail.errors[0].loc).to.deep.equal(['body', 'receivables', 2, 'external_id']);
      expect(await rowsOf(originatorId)).to.deep.equal(before);
    });

    it('accepts the same external_id in another operation, and a repeated identifier', async () => {
      const first = await created(client, token, directBody({ receivables: [receivable({ external_id: 'NF-REUSED' })] }));
      const second = await created(client, token, directBody({ receivables: [receivable({ external_id: 'NF-REUSED', identifier: 'dup' }), receivable({ identifier: 'dup' })] }));
      expect([first.titles[0].external_id, second.titles[0].external_id]).to.deep.equal(['NF-REUSED', 'NF-REUSED']);
    });
  });

  describe('optional fields', () => {
    it('prices with fees at the operation level of the hierarchy, floating days included in the days advanced', async () => {
      const op = await created(client, token, directBody({ fees: { monthly_rate_pct: 3, floating_days: 2 }, receivables: [receivable({ due_date: dueIn(30) })] }));
      // 10,000.00 × 3% × 32/30 = 320.00
      expect(op).to.include({ floating_days: 2, opr_present_value_discount: '320.00' });
      expect(op.titles[0]).to.include({ fee_source: 'operation', qty_days_advanced: 32, monthly_rate_pct: 3 });
    });

    it('records product_id, and refuses one the originator does not own with 422 product_not_found', async () => {
      const product = await buildProduct(originatorId);
      expect((await created(client, token, directBody({ product_id: product.id }))).product_id).to.equal(product.id);
      const { originatorId: stranger } = await buildOperationsIntegrator(client);
      const foreign = await buildProduct(stranger);
      expect(await refused(client, token, directBody({ product_id: foreign.id }), 422)).to.include({ code: 'product_not_found', product_id: foreign.id });
    });

    it('applies the policy named by policy_id, and refuses an unknown one with 422 policy_not_found', async () => {
      const strict = await buildPolicy(originatorId, { active: false, aggregateLimitBrl: Money.of('1000000'), maxOperationValueBrl: Money.of('5000.00') });
      expect(await refused(client, token, directBody({ policy_id: strict.id }), 403)).to.include({ code: 'LIMIT_MAX_OPERATION_VALUE', max_allowed_brl: '5000.00' });
      const { originatorId: stranger } = await buildOperationsIntegrator(client);
      const foreign = await buildPolicy(stranger, { active: false });
      expect(await refused(client, token, directBody({ policy_id: foreign.id }), 422)).to.include({ code: 'policy_not_found' });
    });

    it('keeps embedded_signature (default false) on the operation', async () => {
      const [plain, embedded] = [await created(client, token), await created(client, token, directBody({ embedded_signature: true }))];
      const read = async (id: string) => (await client.get(`/v1/operations/${id}`, { token })).body.embedded_signature;
      expect([await read(plain.id), await read(embedded.id)]).to.deep.equal([false, true]);
    });
  });
});
