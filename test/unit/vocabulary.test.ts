import { expect } from 'chai';
import fc from 'fast-check';
import { AppError, RuleViolation, ValidationFailed } from '../../domain/errors';
import { Money } from '../../domain/money';
import { MoneyRoute, normaliseValues, renderMoney } from '../../domain/vocabulary';

const one = (raw: Record<string, unknown>, route: MoneyRoute = 'simulate') => normaliseValues([{ raw, loc: ['body'], label: 'NF-1' }], route)[0];

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  return expect.fail('accepted');
}

describe('vocabulary', () => {
  it('renders every value under all its names', () => {
    expect(renderMoney({ present_value_discount: Money.of('1.5'), opr_net_present_liquid_value: Money.of(2) })).to.deep.equal({
      present_value_discount: '1.50', discounted_value: '1.50', discount_brl: '1.50', opr_net_present_liquid_value: '2.00', opr_liquid_value: '2.00',
    });
  });

  it('reads canonical or deprecated names alike; null counts as absent', () => {
    const canonical = one({ net_future_value: 100, requested_net_future_value: '40' });
    const deprecated = one({ net_face_value: '100.00', requested_advance_value: 40, requested_net_future_value: null });
    expect([canonical.netFutureValue, canonical.requestedNetFutureValue].map(String)).to.deep.equal(['100.00', '40.00']);
    expect([deprecated.netFutureValue, deprecated.requestedNetFutureValue].map(String)).to.deep.equal(['100.00', '40.00']);
    expect(canonical.grossFutureValue).to.equal(null);
  });

  it('reports a conflict whatever the order of the fields (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1000 }), fc.boolean(), (cents, delta, canonicalFirst) => {
      const [a, b] = [Money.fromCents(cents), Money.fromCents(cents + delta)];
      const pairs: [string, string][] = [['net_future_value', a.toString()], ['net_face_value', b.toString()], ['requested_net_future_value', '1']];
      const raw = Object.fromEntries(canonicalFirst ? pairs : [...pairs].reverse());
      const err = failure(() => one(raw)) as RuleViolation;
      expect(err.detail).to.deep.include({ code: 'VOCABULARY_CONFLICT' });
      expect((err.detail as unknown as { fields: unknown[] }).fields).to.deep.equal([
        { public_field: 'net_future_value', public_value: a.toString(), deprecated_field: 'net_face_value', deprecated_value: b.toString(), loc: ['body'] },
      ]);
    }));
  });

  it('resolves percent 100 to the exact NFV, and any percent to p/100 × NFV rounded down (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100_000_000_00 }), fc.integer({ min: 1, max: 1_000_000 }), (cents, percentTimes10k) => {
      const nfv = Money.fromCents(cents);
      expect(one({ net_future_value: nfv.toString(), requested_net_future_value_percent: 100 }).requestedNetFutureValue!.equals(nfv)).to.equal(true);
      const percent = (percentTimes10k / 10_000).toFixed(4);
      const expected = nfv.amount.times(percent).div(100).toDecimalPlaces(2, 1);
      if (expected.isZero()) return;
      expect(one({ net_future_value: nfv.toString(), requested_net_future_value_percent: percent }).requestedNetFutureValue!.amount.eq(expected)).to.equal(true);
    }));
  });

  it('refuses a percent outside 0 < p <= 100, or one that resolves to less than a cent', () => {
    for (const [p, type] of [[0, 'greater_than'], [100.5, 'less_than_equal'], ['-1', 'greater_than_equal']] as const) {
      const err = failure(() => one({ net_future_value: 100, requested_net_future_value_percent: p })) as ValidationFailed;
      expect(err.errors[0]).to.include({ type }).and.deep.include({ loc: ['body', 'requested_net_future_value_percent'] });
    }
    const tiny = failure(() => one({ net_future_value: '1.00', requested_net_future_value_percent: '0.5' })) as ValidationFailed;
    expect(tiny.errors[0].msg).to.equal('0.5% of 1.00 is less than one cent');
  });

  it('refuses in a fixed order: schema, conflict, deductions, decomposition, ambiguity, NFV above gross, requested above NFV', () => {
    const codeOf = (raw: Record<string, unknown>) => {
      const detail = failure(() => one(raw)).detail;
      return typeof detail === 'string' ? detail : detail.code;
    };
    const everything = {
      net_future_value: '100.00', net_face_value: 99, gross_future_value: 50, requested_net_future_value: 500, requested_net_future_value_percent: 10,
    };
    expect(codeOf({ ...everything, requested_advance_value: 'x' })).to.equal('validation_error');
    expect(codeOf(everything)).to.equal('VOCABULARY_CONFLICT');
    expect(codeOf({ ...everything, net_face_value: null })).to.equal('DEDUCTIONS_REQUIRED_WITH_GROSS');
    expect(codeOf({ ...everything, net_face_value: null, gross_future_value_deductions: 0 })).to.equal('VALUE_DECOMPOSITION_MISMATCH');
    expect(codeOf({ ...everything, net_face_value: null, gross_future_value: null, gross_face_value: 50 })).to.equal('REQUESTED_VALUE_AMBIGUOUS');
    expect(codeOf({ net_future_value: 100, gross_face_value: 50, requested_net_future_value: 500 })).to.equal('validation_error');
    expect(codeOf({ net_future_value: 100, requested_net_future_value: 500 })).to.equal('Receivable NF-1: requested_advance_value (500.00) cannot exceed net_face_value (100.00)');
  });

  it('applies each route\'s part of the rules', () => {
    // stock: no requested value, gross rules apply
    expect(one({ net_future_value: 100 }, 'stock').requestedNetFutureValue).to.equal(null);
    expect(failure(() => one({ net_future_value: 100, gross_future_value: 100 }, 'stock')).detail).to.include({ code: 'DEDUCTIONS_REQUIRED_WITH_GROSS' });
    // stock PATCH: everything optional, NFV above gross left to the route (it checks the resulting values)
    expect(one({}, 'stock_patch')).to.deep.include({ netFutureValue: null, grossFutureValue: null });
    expect(one({ net_future_value: 100, gross_face_value: 50 }, 'stock_patch').netFutureValue!.toString()).to.equal('100.00');
    // anticipation routes: the requested value only, missing reported under the deprecated name
    const missing = failure(() => one({}, 'request_anticipation')) as ValidationFailed;
    expect(missing.errors[0]).to.include({ type: 'missing' }).and.deep.include({ loc: ['body', 'requested_advance_value'] });
    expect(failure(() => one({ requested_net_future_value: 1, requested_advance_value: 2 }, 'simulate_anticipation')).detail).to.include({ code: 'VOCABULARY_CONFLICT' });
    expect(one({ requested_advance_value: 5, requested_net_future_value_percent: 10 }, 'request_anticipation').requestedPercent).to.equal(null);
  });

  it('refuses zero NFV and zero requested values', () => {
    const err = failure(() => one({ net_face_value: 0, requested_net_future_value: 0 })) as ValidationFailed;
    expect(err.errors.map((e) => [e.loc.at(-1), e.type])).to.deep.equal([['net_face_value', 'greater_than'], ['requested_net_future_value', 'greater_than']]);
  });
});
