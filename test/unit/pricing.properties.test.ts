import { expect } from 'chai';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import { RuleViolation } from '../../domain/errors';
import { Dec, Money } from '../../domain/money';
import { addDays, cet, normalisePricingRequest, PricedOperation, priceOperation, PricingPolicy } from '../../domain/pricing';
import { exactCet } from '../../domain/pricing/cet';
import { averageDays } from '../../domain/pricing/price-operation';
import { moneyOfThreeThousandths } from '../../domain/pricing/discount';

const TODAY = '2026-11-21';
const POLICY: PricingPolicy = {
  fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 1 },
  minCetMonthlyPct: null, maxCetMonthlyPct: null,
};

const cents = (max: number) => fc.integer({ min: 1, max }).map((n) => Money.fromCents(n).toString());
const rate = (maxTimes10k: number) => fc.integer({ min: 0, max: maxTimes10k }).map((n) => (n / 10_000).toFixed(4));

/** A receivable with NFV up to 1,000,000.00, a requested value or percent of it, and optional own rates. */
const receivableArb = fc.record({
  nfvCents: fc.integer({ min: 1, max: 100_000_000 }),
  share: fc.integer({ min: 1, max: 100 }),
  byPercent: fc.boolean(),
  days: fc.integer({ min: -30, max: 400 }),
  /** Sent with a gross value of NFV + these deductions; without, gross is the NFV. */
  deductionsCents: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined }),
  own: fc.option(fc.record({ monthly_rate_pct: rate(80_000), discount_pct: rate(50_000), fixed_discount_brl: cents(5_000) }), { nil: undefined }),
});
type ReceivableCase = typeof receivableArb extends fc.Arbitrary<infer T> ? T : never;

function toRaw(r: ReceivableCase, index: number): Record<string, unknown> {
  const requestedCents = Math.floor((r.nfvCents * r.share) / 100);
  return {
    external_id: `R${index}`, payer_name: 'P', payer_document: '11222333000181', due_date: addDays(TODAY, r.days),
    net_future_value: Money.fromCents(r.nfvCents).toString(),
    ...(r.deductionsCents === undefined ? {} : {
      gross_future_value: Money.fromCents(r.nfvCents + r.deductionsCents).toString(), gross_future_value_deductions: Money.fromCents(r.deductionsCents).toString(),
    }),
    ...(r.byPercent && requestedCents > 0
      ? { requested_net_future_value_percent: r.share }
      : { requested_advance_value: Money.fromCents(Math.max(1, requestedCents)).toString() }),
    ...r.own,
  };
}

/**
 * Prices, or returns null when a rule refuses: a discount at or above its base (checked to be
 * true), or a cost whose annual CET no number can hold (a liquid value of cents for a requested one
 * of reais over a day or so).
 */
function priceOrRefuse(raw: Record<string, unknown>[], fees?: Record<string, unknown>, otherDebtDiscounts?: Money): PricedOperation | null {
  const request = normalisePricingRequest({ receivables: raw, fees }, { route: 'simulate' });
  try {
    return priceOperation({ ...request, policy: POLICY, assignorDefaults: null, payerDefaultsByDocument: new Map(), businessDate: TODAY, otherDebtDiscounts });
  } catch (err) {
    expect(err).to.be.instanceOf(RuleViolation);
    const detail = (err as RuleViolation).detail as unknown as { code: string; message: string };
    if (detail.code === 'CET_OUT_OF_BOUNDS') {
      expect(detail.message).to.include('beyond what a number can express');
      return null;
    }
    const offenders = detail as unknown as { receivables: { requested_advance_value: string; discounted_value: string }[] };
    for (const o of offenders.receivables) expect(new Decimal(o.discounted_value).gte(o.requested_advance_value)).to.equal(true);
    return null;
  }
}

const sum = (values: Money[]) => Money.sum(values).toString();

describe('pricing properties', () => {
  it('per receivable liquid + discount = requested, and the discount is the half-up rounding of the exact formula', () => {
    fc.assert(fc.property(fc.array(receivableArb, { minLength: 1, maxLength: 20 }), (receivables) => {
      const op = priceOrRefuse(receivables.map(toRaw));
      if (!op) return;
      for (const p of op.receivables) {
        expect(p.liquid.plus(p.discount).equals(p.input.requestedNetFutureValue)).to.equal(true);
        const exact = p.input.requestedNetFutureValue.amount.times(p.monthlyRatePct).div(100).times(p.daysAdvanced).div(30)
          .plus(p.input.requestedNetFutureValue.amount.times(p.discountPct).div(100)).plus(p.fixedDiscountBrl.amount);
        expect(p.discount.amount.eq(exact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP))).to.equal(true);
      }
    }));
  });

  it('operation totals equal the sums of the rounded parts, and the PIX amount is Σ liquid less the debts it can cover', () => {
    fc.assert(fc.property(fc.array(receivableArb, { minLength: 1, maxLength: 20 }), cents(2_000_000_000), (receivables, debt) => {
      const op = priceOrRefuse(receivables.map(toRaw), undefined, Money.of(debt));
      if (!op) return;
      const parts = op.receivables;
      expect(op.grossFutureValue.toString()).to.equal(sum(parts.map((p) => p.input.grossFutureValue)));
      expect(op.netFutureValue.toString()).to.equal(sum(parts.map((p) => p.input.netFutureValue)));
      expect(op.requestedNetFutureValue.toString()).to.equal(sum(parts.map((p) => p.input.requestedNetFutureValue)));
      expect(op.presentValueDiscount.toString()).to.equal(sum(parts.map((p) => p.discount)));
      expect(op.netLiquidValue.toString()).to.equal(sum(parts.map((p) => p.liquid)));
      expect(op.otherDebtDiscounts!.toString()).to.equal(Money.of(debt).min(op.netLiquidValue).toString());
      expect(op.netPresentLiquidValue.plus(op.otherDebtDiscounts!).equals(op.netLiquidValue)).to.equal(true);
      expect(op.netPresentLiquidValue.isNegative()).to.equal(false);
    }));
  });

  it('total_liquid_value_brl is met to the cent: Σ liquid equals the target', () => {
    fc.assert(fc.property(
      fc.array(receivableArb.map((r) => ({ ...r, own: undefined })), { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 0, max: 100 }),
      (receivables, keepPercent) => {
        const raw = receivables.map(toRaw);
        const requested = normalisePricingRequest({ receivables: raw }, { route: 'simulate' }).receivables.map((r) => r.requestedNetFutureValue);
        const target = Money.of(Money.sum(requested).amount.times(keepPercent).div(100), Decimal.ROUND_DOWN);
        const op = priceOrRefuse(raw, { total_liquid_value_brl: target.toString() });
        if (!op) return;
        expect(op.netLiquidValue.equals(target)).to.equal(true);
        expect(op.receivables.every((p) => p.feeSource === 'operation')).to.equal(true);
      },
    ));
  });

  it('a discount numerator over 3000 in money is the 40-digit division rounded half up to cents', () => {
    const decimalDivision = (numerator: Dec) => Money.of(numerator.div(3000)).toString();
    // Numerators as discountByRates builds them: up to 18-digit amounts times rates of 4 places times days, and halves of a cent.
    const numerator = fc.oneof(
      fc.tuple(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.integer({ min: 0, max: 6 })).map(([digits, places]) => new Dec(digits.toString()).div(10 ** places)),
      fc.bigInt({ min: 0n, max: 10n ** 20n }).map((thirtieths) => new Dec((thirtieths * 30n + 15n).toString())),
    );
    fc.assert(fc.property(numerator, (n) => {
      expect(moneyOfThreeThousandths(n).toString(), n.toFixed()).to.equal(decimalDivision(n));
    }), { numRuns: 5_000 });
  });

  it('the average days in advance is the decimal mean rounded half up', () => {
    const decimalMean = (total: number, count: number) => new Dec(total).div(count).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 2_000 }), (days) => {
      const total = days.reduce((a, b) => a + b, 0);
      expect(averageDays(total, days.length), `${total}/${days.length}`).to.equal(decimalMean(total, days.length));
    }), { numRuns: 3_000 });
    // Means exactly on a half, and next to one.
    for (const [total, count] of [[1, 2], [3, 2], [5, 10], [15, 10], [2_501, 2], [999_999, 2], [1_000_001, 2_000], [1_000_999, 2_000], [1_001_000, 2_000], [0, 7]]) {
      expect(averageDays(total, count), `${total}/${count}`).to.equal(decimalMean(total, count));
    }
  });

  it('percent 100 anticipates exactly the NFV', () => {
    fc.assert(fc.property(cents(100_000_000_000), (nfv) => {
      const raw = [{ external_id: 'x', payer_name: 'P', payer_document: '11222333000181', due_date: TODAY, net_future_value: nfv, requested_net_future_value_percent: 100 }];
      expect(normalisePricingRequest({ receivables: raw }, { route: 'simulate' }).receivables[0].requestedNetFutureValue.toString()).to.equal(nfv);
    }));
  });
});

describe('CET from doubles', () => {
  const same = (requestedCents: number, liquidCents: number, days: Decimal) => {
    const requested = Money.fromCents(requestedCents);
    const liquid = Money.fromCents(liquidCents);
    const fast = cet(requested, liquid, days);
    const exact = exactCet(requested, liquid, Decimal.max(days, 1));
    expect(fast.monthlyPct.toFixed(), `${requested}/${liquid} over ${days}`).to.equal(exact.monthlyPct.toFixed());
    expect(fast.annualPct.toFixed(), `${requested}/${liquid} over ${days}`).to.equal(exact.annualPct.toFixed());
  };

  it('gives the 4 places of the 30-digit definition for any amounts and weighted days', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 100_000_000_000 }),
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 0, max: 4_000_000 }).map((n) => new Decimal(n).div(997)),
      (liquidCents, markupPerMille, days) => same(liquidCents + Math.floor((liquidCents * markupPerMille) / 1000), liquidCents, days),
    ), { numRuns: 3_000 });
  });

  it('gives them where the monthly cost sits on a rounding half, the case doubles cannot settle alone', () => {
    // Over 30 weighted days the factor is R/L itself: R = L·(1 + p/100) puts the monthly cost exactly on p, a half at the 5th place.
    for (const pct of ['1.00005', '2.50005', '0.00015', '12.99995', '4.12345']) {
      const liquidCents = 100_000_000;
      same(new Decimal(pct).times(liquidCents).div(100).plus(liquidCents).toNumber(), liquidCents, new Decimal(30));
    }
    same(100, 100, new Decimal(12));
    same(100, 0, new Decimal(12));
  });
});
