import { expect } from 'chai';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildPricingIntegrator, dueIn, receivable, receivableWithout } from '../support/simulate';

/** Every code of the contract's "Vocabulary codes" and "Simulation and direct-creation codes" tables. */
describe('POST /v1/simulate refusals', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildPricingIntegrator(client));
  });

  const simulate = (receivables: unknown[], extra: Record<string, unknown> = {}) => client.post('/v1/simulate', { receivables, ...extra }, { token });
  async function expectRefusal(receivables: unknown[], detail: unknown, extra: Record<string, unknown> = {}) {
    const res = await simulate(receivables, extra);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.detail).to.deep.equal(detail);
  }
  async function expectPriced(receivables: unknown[]) {
    const res = await simulate(receivables);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  describe('vocabulary codes', () => {
    it('accepts both names of one value with the same number, 10000 equal to "10000.00", or null in the unused one', async () => {
      const body = await expectPriced([
        receivable({ net_future_value: 10000, net_face_value: '10000.00', requested_advance_value: '10000', gross_face_value: null }),
        receivableWithout(['net_future_value'], { net_face_value: '10000.00', requested_net_future_value: null, requested_advance_value: 10000 }),
      ]);
      expect(body.opr_net_future_value).to.equal('20000.00');
    });

    it('refuses both names with different numbers: VOCABULARY_CONFLICT lists every pair, canonical names first', async () => {
      await expectRefusal([
        receivable({ external_id: 'A', net_future_value: '10000.00', net_face_value: '9999.99' }),
        receivable({ external_id: 'B', requested_net_future_value: 500, requested_advance_value: '500.01' }),
      ], {
        code: 'VOCABULARY_CONFLICT',
        message: 'A value was sent under its canonical and deprecated names with different numbers',
        fields: [
          { public_field: 'net_future_value', public_value: '10000.00', deprecated_field: 'net_face_value', deprecated_value: '9999.99', loc: ['body', 'receivables', 0] },
          { public_field: 'requested_net_future_value', public_value: '500.00', deprecated_field: 'requested_advance_value', deprecated_value: '500.01', loc: ['body', 'receivables', 1] },
        ],
      });
    });

    it('refuses gross_future_value without deductions: DEDUCTIONS_REQUIRED_WITH_GROSS names both fields', async () => {
      await expectRefusal([receivable({ gross_future_value: '12000.00' })], {
        code: 'DEDUCTIONS_REQUIRED_WITH_GROSS',
        message: 'gross_future_value requires gross_future_value_deductions (send 0 when there are none)',
        fields: ['gross_future_value', 'gross_future_value_deductions'],
        loc: ['body', 'receivables', 0],
      });
    });

    it('still accepts the deprecated gross_face_value alone, and reports it as the gross', async () => {
      const body = await expectPriced([receivable({ gross_face_value: '12000.00' })]);
      expect(body.receivables[0]).to.include({ gross_future_value: '12000.00', gross_face_value: '12000.00', gross_future_value_deductions: null });
      expect(body.opr_gross_future_value).to.equal('12000.00');
    });

    it('refuses an NFV that is not exactly gross minus deductions: VALUE_DECOMPOSITION_MISMATCH with the three values', async () => {
      // 12000.00 − 1999.99 = 10000.01, one cent off the NFV of 10000.00: no tolerance
      await expectRefusal([receivable({ gross_future_value: 12000, gross_future_value_deductions: '1999.99' })], {
        code: 'VALUE_DECOMPOSITION_MISMATCH',
        message: 'net_future_value (10000.00) must equal gross_future_value minus gross_future_value_deductions (10000.01)',
        gross_future_value: '12000.00', gross_future_value_deductions: '1999.99', net_future_value: '10000.00',
        expected_net_future_value: '10000.01', loc: ['body', 'receivables', 0],
      });
    });

    it('accepts an exact decomposition and returns the deductions', async () => {
      const body = await expectPriced([receivable({ gross_future_value: '12000.00', gross_future_value_deductions: 2000 })]);
      expect(body.receivables[0]).to.include({ gross_future_value: '12000.00', gross_future_value_deductions: '2000.00', net_future_value: '10000.00' });
    });

    it('refuses the percent together with an absolute value: REQUESTED_VALUE_AMBIGUOUS, canonical names', async () => {
      await expectRefusal([receivableWithout(['requested_net_future_value'], { requested_advance_value: '100.00', requested_net_future_value_percent: 50 })], {
        code: 'REQUESTED_VALUE_AMBIGUOUS',
        message: 'Send either requested_net_future_value (or requested_advance_value) or requested_net_future_value_percent, not both',
        fields: ['requested_net_future_value', 'requested_net_future_value_percent'],
        loc: ['body', 'receivables', 0],
      });
    });

    it('resolves the percent rounded down to cents, and 100 to the exact NFV', async () => {
      const body = await expectPriced([
        receivableWithout(['requested_net_future_value'], { external_id: 'half', net_future_value: '1000.01', requested_net_future_value_percent: 50 }),
        receivableWithout(['requested_net_future_value'], { external_id: 'all', net_future_value: '1000.01', requested_net_future_value_percent: '100' }),
      ]);
      // 50% of 1000.01 = 500.005 → 500.00 (down); 100% = 1000.01
      expect(body.receivables.map((r: Record<string, unknown>) => [r.requested_net_future_value, r.requested_net_future_value_percent]))
        .to.deep.equal([['500.00', 50], ['1000.01', 100]]);
    });
  });

  describe('value checks', () => {
    it('refuses a requested value above the NFV with the contract\'s string, naming the first offender', async () => {
      await expectRefusal([
        receivable({ external_id: 'ok' }),
        receivable({ external_id: 'NF-77', requested_net_future_value: '1500.00', net_future_value: 1000 }),
        receivable({ external_id: 'NF-78', requested_net_future_value: '2000.00', net_future_value: 1000 }),
      ], 'Receivable NF-77: requested_advance_value (1500.00) cannot exceed net_face_value (1000.00)');
    });

    it('refuses an NFV above the gross as a schema failure', async () => {
      await expectRefusal([receivable({ gross_face_value: '9000.00' })], {
        code: 'validation_error',
        message: 'Request validation failed',
        errors: [{
          loc: ['body', 'receivables', 0, 'net_future_value'], msg: 'net_future_value (10000.00) cannot exceed gross_face_value (9000.00)',
          type: 'value_error', input: '10000.00',
        }],
      });
    });

    it('refuses total_liquid_value_brl above the requested total with a string starting with the contract\'s words', async () => {
      await expectRefusal([receivable(), receivable()], 'total_liquid_value_brl exceeds total face value: 20000.01 > 20000.00',
        { fees: { total_liquid_value_brl: '20000.01' } });
    });

    it('refuses a fixed discount at or above the base: RECEIVABLE_DISCOUNT_EXCEEDS_BASE with deprecated names', async () => {
      await expectRefusal([
        receivable({ external_id: 'fine', fixed_discount_brl: '9999.99', monthly_rate_pct: 0 }),
        receivable({ external_id: 'equal', fixed_discount_brl: '10000.00', monthly_rate_pct: 0 }),
      ], {
        code: 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE',
        message: 'The computed discount is at or above the requested value of 1 receivable(s)',
        receivables: [{ external_id: 'equal', requested_advance_value: '10000.00', discounted_value: '10000.00' }],
      });
    });

    it('evaluates the base after spreading total_liquid_value_brl', async () => {
      // total discount = 100.00 + 10000.00 − 9900.00 = 200.00, spread by R·d: 100·360 = 36000 and 10000·1 = 10000
      // long: 20000 cents × 36000/46000 = 15652.17 → 156.52 (above its 100.00); short: 4347.83 → 43.48 (the leftover cent)
      await expectRefusal([
        receivable({ external_id: 'long', due_date: dueIn(360), net_future_value: '100.00', requested_net_future_value: '100.00' }),
        receivable({ external_id: 'short', due_date: dueIn(1) }),
      ], {
        code: 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE',
        message: 'The computed discount is at or above the requested value of 1 receivable(s)',
        receivables: [{ external_id: 'long', requested_advance_value: '100.00', discounted_value: '156.52' }],
      }, { fees: { total_liquid_value_brl: '9900.00' } });
    });

    it('answers originator_policy_not_configured when the originator has no policy', async () => {
      const { token: unconfigured } = await buildPricingIntegrator(client, { policy: null });
      const res = await client.post('/v1/simulate', { receivables: [receivable()] }, { token: unconfigured });
      expect(res.status).to.equal(422);
      expect(res.body).to.deep.equal({ detail: 'originator_policy_not_configured' });
    });

    it('only advises CET_OUT_OF_BOUNDS in simulation (200 with a warning)', async () => {
      const body = await expectPriced([receivable({ monthly_rate_pct: 20 })]);
      // 10000 × 20/100 × 30/30 = 2000.00; CET = 10000/8000 − 1 = 25%
      expect(body.cet_monthly_pct).to.equal(25);
      expect(body.warnings).to.deep.equal([{
        code: 'CET_OUT_OF_BOUNDS', message: 'Monthly CET 25% is above the policy range 0.5%..15%', scope: 'operation',
        cet_monthly_pct: 25, min_cet_monthly_pct: 0.5, max_cet_monthly_pct: 15,
      }]);
    });
  });
});
