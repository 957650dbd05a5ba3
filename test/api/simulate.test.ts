import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, tokenFor } from '../support/factories';
import { DEV_SEED } from '../../db/seeds/dev-seed';
import { cnpj, cpf } from '../support/documents';
import { Dec, Money } from '../../domain/money';
import { buildPolicy, buildPricingIntegrator, dueIn, receivable, today } from '../support/simulate';
import { RECEIVABLES_CEILING } from '../../domain/pricing/policy';

describe('POST /v1/simulate', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });

  it('prices one receivable: 10,000.00 for 30 days at 2.5% a month is 250.00 of discount', async () => {
    const { token, policy } = await buildPricingIntegrator(client);
    const item = receivable({ external_id: 'NF-1', payer_document: '11.222.333/0001-81', identifier: 'first' });
    const res = await client.post('/v1/simulate', { receivables: [item] }, { token });
    expect(res.status, res.text).to.equal(200);
    // discount = 10000.00 × 2.5/100 × 30/30 = 250.00; liquid = 10000.00 − 250.00 = 9750.00
    // CET = (10000/9750)^(30/30) − 1 = 2.5641%; annual = 1.025641…^12 − 1 = 35.5017%
    expect(res.body).to.deep.equal({
      id: 'simulation', status: 'SIMULATED', business_date: today(), policy_id: policy!.id,
      opr_gross_future_value: '10000.00', opr_gross_face_value: '10000.00',
      opr_net_future_value: '10000.00', opr_net_face_value: '10000.00',
      opr_present_value_discount: '250.00', opr_discounted_value: '250.00',
      opr_net_present_liquid_value: '9750.00', opr_liquid_value: '9750.00',
      opr_requested_net_future_value: '10000.00',
      floating_days: 0, average_days_in_advance: 30, weighted_avg_days: 30,
      cet_monthly_pct: 2.5641, cet_annual_pct: 35.5017,
      fee_hierarchy: 'receivable > operation > assignor > payer > policy',
      assignor_defaults_used: false, payer_defaults_used: false,
      receivables: [{
        external_id: 'NF-1', identifier: 'first', backing_type: 'NFE', payer_name: 'Payer Ltda', payer_document: '11222333000181',
        due_date: dueIn(30),
        gross_future_value: '10000.00', gross_face_value: '10000.00',
        net_future_value: '10000.00', net_face_value: '10000.00',
        requested_net_future_value: '10000.00', requested_advance_value: '10000.00',
        present_value_discount: '250.00', discounted_value: '250.00', discount_brl: '250.00',
        net_present_liquid_value: '9750.00', liquid_value: '9750.00',
        gross_future_value_deductions: null, requested_net_future_value_percent: null,
        days_to_due: 30, floating_days: 0, days_advanced: 30, qty_days_advanced: 30,
        monthly_rate_pct: 2.5, discount_pct: 0, fixed_discount_brl: '0.00', fee_source: 'policy',
      }],
      warnings: [],
    });
  });

  it('sums the rounded parts: 333.33 at 1% a month for 1 day plus 10% flat rounds to 33.44 three times', async () => {
    const { token } = await buildPricingIntegrator(client, { policy: {} });
    const items = [1, 2, 3].map((n) => receivable({ external_id: `R${n}`, due_date: dueIn(1), net_future_value: 333.33, requested_net_future_value: '333.33', monthly_rate_pct: 1, discount_pct: '10' }));
    const res = await client.post('/v1/simulate', { receivables: items }, { token });
    expect(res.status, res.text).to.equal(200);
    // each: 333.33 × 1/100 × 1/30 + 333.33 × 10/100 = 0.111110 + 33.333 = 33.444110 → 33.44
    expect(res.body.receivables.map((r: { present_value_discount: string }) => r.present_value_discount)).to.deep.equal(['33.44', '33.44', '33.44']);
    expect(res.body.opr_present_value_discount).to.equal('100.32');
    expect(res.body.opr_net_present_liquid_value).to.equal('899.67');
    expect(res.body.receivables[0].fee_source).to.equal('receivable');
  });

  it('prices a past due date as zero days (a wrong date changes the price, it is not refused)', async () => {
    const { token } = await buildPricingIntegrator(client);
    const res = await client.post('/v1/simulate', { receivables: [receivable({ due_date: dueIn(-10) })] }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.receivables[0]).to.include({ days_to_due: 0, days_advanced: 0, present_value_discount: '0.00', net_present_liquid_value: '10000.00' });
  });

  it('refuses a cost whose annual CET no number holds with 422 CET_OUT_OF_BOUNDS, not a null (found by the fuzz run)', async () => {
    const { token } = await buildPricingIntegrator(client);
    // 10,000.00 for 0.20 over one day: a monthly factor of 50,000^30, whose 12th power is past any double.
    const res = await client.post('/v1/simulate', { receivables: [receivable({ due_date: dueIn(-10) })], fees: { total_liquid_value_brl: '0.20' } }, { token });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.detail).to.include({ code: 'CET_OUT_OF_BOUNDS', scope: 'operation' });
    expect(res.body.detail.message).to.match(/^Monthly CET [\d.e+]+% compounds to an annual CET beyond what a number can express$/);
  });

  it('follows the fee hierarchy and reports where each receivable\'s fees came from', async () => {
    const { token, originatorId } = await buildPricingIntegrator(client);
    const assignorDocument = cpf();
    const [payerWithDefaults, plainPayer] = [cnpj(), cnpj()];
    await testDb()('assignors').insert({
      id: uuidv7(), originator_id: originatorId, type: 'F',
      document: assignorDocument, cpf: assignorDocument, name: 'Assignor', email: 'a@example.com', floating_days: 2,
    });
    await testDb()('payers').insert({
      id: uuidv7(), originator_id: originatorId,
      document: payerWithDefaults, name: 'Payer', monthly_rate_pct: '3', fixed_discount_brl: '5.00',
    });
    const body = {
      assignor_document: assignorDocument,
      receivables: [
        receivable({ external_id: 'own', monthly_rate_pct: 1 }),
        receivable({ external_id: 'payer', payer_document: payerWithDefaults }),
        receivable({ external_id: 'policy', payer_document: plainPayer }),
      ],
    };
    const res = await client.post('/v1/simulate', body, { token });
    expect(res.status, res.text).to.equal(200);
    const rows = res.body.receivables as Record<string, unknown>[];
    // the assignor sets floating days only (2): every receivable advances 30 + 2 = 32 days
    // own:    10000 × 1/100 × 32/30 = 106.666… → 106.67
    // payer:  10000 × 3/100 × 32/30 + 5.00 = 320.00 + 5.00 = 325.00
    // policy: 10000 × 2.5/100 × 32/30 = 266.666… → 266.67
    expect(rows.map((r) => [r.fee_source, r.days_advanced, r.present_value_discount])).to.deep.equal([
      ['receivable', 32, '106.67'], ['payer', 32, '325.00'], ['policy', 32, '266.67'],
    ]);
    expect(res.body).to.include({ assignor_defaults_used: true, payer_defaults_used: true, floating_days: 2 });
    const withFees = await client.post('/v1/simulate', { ...body, fees: { monthly_rate_pct: 2, floating_days: 0 } }, { token });
    // operation fees beat assignor and payer: 10000 × 2/100 × 30/30 = 200.00, except the receivable's own
    expect((withFees.body.receivables as Record<string, unknown>[]).map((r) => [r.fee_source, r.present_value_discount])).to.deep.equal([
      ['receivable', '100.00'], ['operation', '200.00'], ['operation', '200.00'],
    ]);
    expect(withFees.body).to.include({ assignor_defaults_used: false, payer_defaults_used: false });
  });

  it('lets the dev seed\'s originator A simulate with its seeded policy', async () => {
    const a = DEV_SEED.originators[0];
    const token = await tokenFor(client, { id: a.credentialId, originatorId: a.id, clientId: a.clientId, secret: a.secret, scopes: [] });
    const res = await client.post('/v1/simulate', { receivables: [receivable()] }, { token });
    expect(res.status, res.text).to.equal(200);
    // seeded: 2.5% a month and 1 floating day: 10000 × 2.5/100 × 31/30 = 258.333… → 258.33
    expect(res.body.receivables[0]).to.include({ floating_days: 1, days_advanced: 31, present_value_discount: '258.33' });
  });

  it('prices by the policy named in policy_id (even an inactive one), and refuses another originator\'s', async () => {
    const { token, originatorId } = await buildPricingIntegrator(client);
    const cheaper = await buildPolicy(originatorId, { active: false, fees: { monthlyRatePct: new Dec(1), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 } });
    const res = await client.post('/v1/simulate', { policy_id: cheaper.id, receivables: [receivable()] }, { token });
    // 10000 × 1/100 × 30/30 = 100.00
    expect(res.body).to.include({ policy_id: cheaper.id, opr_present_value_discount: '100.00' });
    const stranger = await buildPricingIntegrator(client);
    const foreign = await client.post('/v1/simulate', { policy_id: cheaper.id, receivables: [receivable()] }, { token: stranger.token });
    expect(foreign.status).to.equal(422);
    expect(foreign.body.detail).to.deep.equal({ code: 'policy_not_found', message: `No policy ${cheaper.id} for this originator`, policy_id: cheaper.id });
  });

  it('refuses more receivables than the policy allows with creation\'s code, too_many_receivables_max_<N> (issue #24)', async () => {
    const { token } = await buildPricingIntegrator(client, { policy: { maxReceivablesPerOperation: 2 } });
    const res = await client.post('/v1/simulate', { receivables: [receivable(), receivable(), receivable()] }, { token });
    expect([res.status, res.body]).to.deep.equal([422, { detail: 'too_many_receivables_max_2' }]);
    const two = await client.post('/v1/simulate', { receivables: [receivable(), receivable()] }, { token });
    expect(two.status, two.text).to.equal(200);
  });

  it('holds every policy to the document\'s maxItems: a policy above it still refuses above the ceiling', async () => {
    const { token } = await buildPricingIntegrator(client, { policy: { maxReceivablesPerOperation: RECEIVABLES_CEILING + 500 } });
    const many = Array.from({ length: RECEIVABLES_CEILING + 1 }, () => receivable());
    const res = await client.post('/v1/simulate', { receivables: many }, { token });
    expect([res.status, res.body]).to.deep.equal([422, { detail: `too_many_receivables_max_${RECEIVABLES_CEILING}` }]);
  });

  it('needs the simulation:create scope', async () => {
    const { token } = await buildIntegrator(client, { scopes: ['operation:read'] });
    const res = await client.post('/v1/simulate', { receivables: [receivable()] }, { token });
    expect(res.status, res.text).to.equal(403);
    expect(res.body.detail).to.include({ code: 'scope_insufficient' });
  });
});
