import { expect } from 'chai';
import { AppError } from '../../domain/errors';
import { Dec, Money } from '../../domain/money';
import {
  addDays, businessDate, enforceCetBounds, FeeDefaults, normalisePricingRequest, priceOperation, PricingInput, PricingPolicy,
} from '../../domain/pricing';

const TODAY = '2026-11-21';
const POLICY: PricingPolicy = {
  fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 },
  minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec(15),
};

function item(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: 'NF-1', payer_name: 'Payer', payer_document: '11222333000181', due_date: addDays(TODAY, 30),
    net_future_value: '10000.00', requested_net_future_value: '10000.00', ...overrides,
  };
}

function price(receivables: Record<string, unknown>[], options: Partial<PricingInput> & { feesRaw?: unknown; route?: 'simulate' | 'direct' } = {}) {
  const request = normalisePricingRequest({ receivables, fees: options.feesRaw }, { route: options.route ?? 'simulate' });
  return priceOperation({
    policy: POLICY, assignorDefaults: null, payerDefaultsByDocument: new Map(), businessDate: TODAY, ...options, ...request,
  });
}

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  return expect.fail('accepted');
}

const defaults = (fields: Partial<FeeDefaults>): FeeDefaults => ({ monthlyRatePct: null, discountPct: null, fixedDiscountBrl: null, floatingDays: null, ...fields });

describe('pricing', () => {
  describe('business date', () => {
    it('is the date in São Paulo (UTC−3), not in UTC', () => {
      expect(businessDate(new Date('2026-11-21T02:59:59Z'))).to.equal('2026-11-20');
      expect(businessDate(new Date('2026-11-21T03:00:00Z'))).to.equal('2026-11-21');
    });

    it('has four digits of year before the year 1000 (found by the fuzz run: a test clock in year 158 priced as NaN)', () => {
      expect(businessDate(new Date('0158-05-05T12:00:00Z'))).to.equal('0158-05-05');
    });
  });

  describe('worked examples', () => {
    it('monthly rate pro rata, flat percent and fixed BRL add up before one rounding', () => {
      // R = 1234.56, d = 45 + 2 floating = 47, m = 1.99%, p = 0.5%, F = 3.33
      // 1234.56 × 1.99/100 × 47/30 = 38.4894656 ; 1234.56 × 0.5/100 = 6.1728 ; + 3.33 = 47.9922656 → 47.99
      const op = price([item({ net_future_value: '1234.56', requested_net_future_value: '1234.56', due_date: addDays(TODAY, 45), monthly_rate_pct: '1.99', discount_pct: 0.5, fixed_discount_brl: '3.33' })],
        { feesRaw: { floating_days: 2 } });
      const [r] = op.receivables;
      expect([r.daysToDue, r.floatingDays, r.daysAdvanced, r.discount.toString(), r.liquid.toString(), r.feeSource]).to.deep.equal([45, 2, 47, '47.99', '1186.57', 'receivable']);
    });

    it('works liquid_value_brl backwards: the discount is R − L and the implied monthly rate is reported', () => {
      // R = 10000, L = 9800 → discount 200.00; implied m = 200 × 3000 / (10000 × 30) = 2%
      const [r] = price([item({ liquid_value_brl: '9800.00' })]).receivables;
      expect([r.discount.toString(), r.liquid.toString(), r.monthlyRatePct.toNumber(), r.feeSource]).to.deep.equal(['200.00', '9800.00', 2, 'receivable']);
      // due today: no days to spread it over, so it is a flat 2% discount
      const [flat] = price([item({ liquid_value_brl: '9800.00', due_date: TODAY })]).receivables;
      expect([flat.monthlyRatePct.toNumber(), flat.discountPct.toNumber()]).to.deep.equal([0, 2]);
    });

    it('spreads total_liquid_value_brl by R·d with one implied rate, cents by largest remainder', () => {
      // R: 1000 (30 d), 2000 (60 d), 3000 (90 d) → weights 30000, 120000, 270000 (Σ 420000)
      // total discount 6000 − 5800 = 20000 cents → 1428.571…, 5714.285…, 12857.142… cents; floors Σ 19999
      // the leftover cent goes to the largest remainder (.571 of the first): 14.29, 57.14, 128.57
      const op = price([
        item({ external_id: 'a', net_future_value: 1000, requested_net_future_value: 1000 }),
        item({ external_id: 'b', net_future_value: 2000, requested_net_future_value: 2000, due_date: addDays(TODAY, 60) }),
        item({ external_id: 'c', net_future_value: 3000, requested_net_future_value: 3000, due_date: addDays(TODAY, 90) }),
      ], { feesRaw: { total_liquid_value_brl: '5800.00' } });
      expect(op.receivables.map((r) => r.discount.toString())).to.deep.equal(['14.29', '57.14', '128.57']);
      expect(op.netPresentLiquidValue.toString()).to.equal('5800.00');
      // implied m = 200 × 3000 / 420000 = 1.428571… → 1.4286
      expect(op.receivables.map((r) => [r.feeSource, r.monthlyRatePct.toNumber()])).to.deep.equal([['operation', 1.4286], ['operation', 1.4286], ['operation', 1.4286]]);
    });

    it('computes averages and CET: mean and value-weighted days, ((ΣR/ΣL)^(30/w) − 1)·100', () => {
      // R 1000 for 10 d → 8.33; R 3000 for 50 d → 125.00; ΣR 4000, ΣL 3866.67
      // average_days = (10 + 50)/2 = 30; weighted = (1000·10 + 3000·50)/4000 = 40
      // CET = (4000/3866.67)^(30/40) − 1 = 2.5752%; annual = (4000/3866.67)^(360/40) − 1 = 35.6769%
      const op = price([
        item({ external_id: 'a', net_future_value: 1000, requested_net_future_value: 1000, due_date: addDays(TODAY, 10) }),
        item({ external_id: 'b', net_future_value: 3000, requested_net_future_value: 3000, due_date: addDays(TODAY, 50) }),
      ]);
      expect(op.receivables.map((r) => r.discount.toString())).to.deep.equal(['8.33', '125.00']);
      expect([op.averageDaysInAdvance, op.weightedAvgDays.toNumber(), op.cetMonthlyPct.toNumber(), op.cetAnnualPct.toNumber()]).to.deep.equal([30, 40, 2.5752, 35.6769]);
    });

    it('deducts other debts from the PIX amount, never more than Σ liquid', () => {
      const base = price([item()], { otherDebtDiscounts: Money.of('100.00') });
      expect([base.netLiquidValue, base.otherDebtDiscounts, base.netPresentLiquidValue].map(String)).to.deep.equal(['9750.00', '100.00', '9650.00']);
      const capped = price([item()], { otherDebtDiscounts: Money.of('99999.00') });
      expect([capped.otherDebtDiscounts, capped.netPresentLiquidValue].map(String)).to.deep.equal(['9750.00', '0.00']);
      expect(price([item()]).otherDebtDiscounts).to.equal(null);
    });
  });

  describe('fee hierarchy', () => {
    const levels = {
      assignorDefaults: defaults({ monthlyRatePct: new Dec(3), floatingDays: 4 }),
      payerDefaultsByDocument: new Map([['11222333000181', defaults({ discountPct: new Dec(1), floatingDays: 9 })]]),
    };

    it('takes all rates from the first level that sets any, and floating days from operation > assignor > payer > policy', () => {
      const byAssignor = price([item()], levels).receivables[0];
      // assignor: 3% × 34/30 on 10000 = 340.00 (floating 4 from the assignor, which beats the payer's 9)
      expect([byAssignor.feeSource, byAssignor.floatingDays, byAssignor.discount.toString(), byAssignor.discountPct.toNumber()]).to.deep.equal(['assignor', 4, '340.00', 0]);
      const byPayer = price([item()], { ...levels, assignorDefaults: defaults({ floatingDays: 4 }) });
      // payer: 1% flat = 100.00, no monthly rate (the level sets none: zero, not the policy's)
      expect([byPayer.receivables[0].feeSource, byPayer.receivables[0].discount.toString(), byPayer.assignorDefaultsUsed, byPayer.payerDefaultsUsed]).to.deep.equal(['payer', '100.00', true, true]);
      const byOperation = price([item()], { ...levels, feesRaw: { fixed_discount_brl: 10 } }).receivables[0];
      expect([byOperation.feeSource, byOperation.discount.toString()]).to.deep.equal(['operation', '10.00']);
      const byPolicy = price([item()]).receivables[0];
      expect([byPolicy.feeSource, byPolicy.discount.toString()]).to.deep.equal(['policy', '250.00']);
    });
  });

  describe('refusals', () => {
    it('refuses total_liquid_value_brl above the requested total', () => {
      expect(refusal(() => price([item()], { feesRaw: { total_liquid_value_brl: '10000.01' } })).detail).to.equal('total_liquid_value_brl exceeds total face value: 10000.01 > 10000.00');
    });

    it('refuses a discount at or above the base, listing every offender with deprecated names', () => {
      const err = refusal(() => price([item({ external_id: 'x', fixed_discount_brl: '10000.00' }), item({ external_id: 'y', monthly_rate_pct: 100, due_date: addDays(TODAY, 31) })]));
      expect(err.detail).to.deep.include({ code: 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE' });
      // x: its own level sets only F, so m = p = 0 and the discount is F = 10000.00; y: 10000 × 100/100 × 31/30 = 10333.33
      expect((err.detail as unknown as { receivables: unknown[] }).receivables).to.deep.equal([
        { external_id: 'x', requested_advance_value: '10000.00', discounted_value: '10000.00' },
        { external_id: 'y', requested_advance_value: '10000.00', discounted_value: '10333.33' },
      ]);
    });

    it('refuses the net target next to the operation\'s rate fields on creation only', () => {
      expect(price([item()], { feesRaw: { total_liquid_value_brl: 9000, monthly_rate_pct: 5 } }).presentValueDiscount.toString()).to.equal('1000.00');
      expect(refusal(() => price([item()], { route: 'direct', feesRaw: { total_liquid_value_brl: 9000, monthly_rate_pct: 5 } })).detail).to.deep.include({ code: 'validation_error' });
    });

    it('advises CET_OUT_OF_BOUNDS, for the operation and for a liquid_value_brl\'s implied rate; creation enforces it', () => {
      // implied m = (10000 − 7000) × 3000 / (10000 × 30) = 30% a month
      const op = price([item({ liquid_value_brl: '7000.00' })]);
      expect(op.cetFindings.map((f) => [f.scope, f.cet_monthly_pct])).to.deep.equal([['operation', 42.8571], ['receivable', 30]]);
      expect(refusal(() => enforceCetBounds(op)).detail).to.deep.include({ code: 'CET_OUT_OF_BOUNDS', scope: 'operation' });
      expect(() => enforceCetBounds(price([item()]))).to.not.throw();
    });
  });
});
