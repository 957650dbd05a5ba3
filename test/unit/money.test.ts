import { expect } from 'chai';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import { ValidationFailed } from '../../domain/errors';
import { allocate, Money } from '../../domain/money';
import { parseDecimal, parseMoney, RATE_RULE } from '../../domain/money-input';

function refusal(raw: unknown): { msg: string; type: string } {
  try {
    parseMoney(raw, ['body', 'amount']);
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationFailed);
    const [first] = (err as ValidationFailed).errors;
    expect(first.loc).to.deep.equal(['body', 'amount']);
    return { msg: first.msg, type: first.type };
  }
  return expect.fail(`${JSON.stringify(raw)} was accepted`);
}

describe('Money', () => {
  describe('parsing', () => {
    it('reads a JSON number and a string as the same amount: 10000 equals "10000.00"', () => {
      expect(parseMoney(10000, []).equals(parseMoney('10000.00', []))).to.equal(true);
      expect(parseMoney(0.1, []).toString()).to.equal('0.10');
      expect(parseMoney('7', []).toString()).to.equal('7.00');
      expect(parseMoney('0.00', []).isZero()).to.equal(true);
    });

    it('refuses more than 2 decimals, negatives, NaN, infinity, exponents and non-numeric text with a clear msg', () => {
      expect(refusal('10.001')).to.deep.equal({ msg: 'Amount should have no more than 2 decimal places', type: 'decimal_max_places' });
      expect(refusal(1.005)).to.deep.equal({ msg: 'Amount should have no more than 2 decimal places', type: 'decimal_max_places' });
      expect(refusal(-1)).to.deep.equal({ msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' });
      expect(refusal('-0.01').type).to.equal('greater_than_equal');
      expect(refusal('NaN').type).to.equal('finite_number');
      expect(refusal('Infinity').type).to.equal('finite_number');
      expect(refusal('1e3').msg).to.equal('Exponent notation is not accepted; write the plain number, e.g. "1000.00"');
      expect(refusal(1e21).type).to.equal('decimal_parsing');
      for (const text of ['abc', '', ' 10', '10,50', '1.2.3', '+5', '.5']) expect(refusal(text).type, text).to.equal('decimal_parsing');
      for (const value of [true, null, {}, [1]]) expect(refusal(value).type).to.equal('decimal_type');
    });

    it('refuses JSON numbers that lost precision on the way, and amounts wider than numeric(18,2)', () => {
      expect(refusal(1234567890123456.7).msg).to.match(/send the amount as a string/);
      expect(parseMoney('1234567890123456.78', []).toString()).to.equal('1234567890123456.78');
      expect(refusal('12345678901234567.00').type).to.equal('decimal_whole_digits');
    });

    it('reads rates with up to 4 decimals, at most 100', () => {
      expect((parseDecimal('2.3456', RATE_RULE) as Decimal).toNumber()).to.equal(2.3456);
      expect(parseDecimal('2.34567', RATE_RULE)).to.include({ type: 'decimal_max_places' });
      expect(parseDecimal(100.01, RATE_RULE)).to.include({ type: 'less_than_equal' });
    });
  });

  describe('values', () => {
    it('renders exactly two decimals and rounds half-up to cents', () => {
      expect(Money.of('1.005').toString()).to.equal('1.01');
      expect(Money.of('1.004999').toString()).to.equal('1.00');
      expect(Money.of('2.675', Decimal.ROUND_DOWN).toString()).to.equal('2.67');
      expect(JSON.stringify({ v: Money.of(3) })).to.equal('{"v":"3.00"}');
    });

    it('is immutable: arithmetic returns new values', () => {
      const ten = Money.of(10);
      const sum = ten.plus(Money.of('0.01'));
      expect(ten.toString()).to.equal('10.00');
      expect(sum.toString()).to.equal('10.01');
      expect(Money.sum([ten, sum, Money.ZERO]).toString()).to.equal('20.01');
      expect(ten.minus(Money.of(20)).toString()).to.equal('-10.00');
    });
  });

  describe('allocate', () => {
    it('spreads 100.00 in three: 33.34, 33.33, 33.33 (the leftover cent to the earliest of equal remainders)', () => {
      expect(allocate(Money.of(100), [1, 1, 1]).map(String)).to.deep.equal(['33.34', '33.33', '33.33']);
    });

    it('gives leftover cents to the largest remainders: 0.05 by 1:2:2 → 0.01, 0.02, 0.02', () => {
      // exact: 1, 2, 2 cents; then 10.00 by 3:7 → 3.00 / 7.00; 0.10 by 1:1:1 → 0.04, 0.03, 0.03
      expect(allocate(Money.of('0.05'), [1, 2, 2]).map(String)).to.deep.equal(['0.01', '0.02', '0.02']);
      expect(allocate(Money.of('0.10'), [1, 1, 1]).map(String)).to.deep.equal(['0.04', '0.03', '0.03']);
      // 1.00 by 0.333:0.667 → 33.3 and 66.7 cents: floors 33 + 66, the cent to the .7
      expect(allocate(Money.of(1), ['0.333', '0.667']).map(String)).to.deep.equal(['0.33', '0.67']);
    });

    it('refuses weights that cannot share anything', () => {
      expect(() => allocate(Money.of(1), [])).to.throw();
      expect(() => allocate(Money.of(1), [0, 0])).to.throw();
      expect(() => allocate(Money.of(1), [1, -1])).to.throw();
    });

    it('never loses or invents a cent, and never gives a share more than one cent off its exact part (property)', () => {
      fc.assert(fc.property(
        fc.nat({ max: 1_000_000_000 }),
        fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 50 }).filter((w) => w.some((x) => x > 0)),
        (cents, weights) => {
          const total = Money.fromCents(cents);
          const shares = allocate(total, weights);
          expect(Money.sum(shares).equals(total)).to.equal(true);
          const sum = weights.reduce((a, b) => a + b, 0);
          shares.forEach((share, i) => {
            const exact = new Decimal(cents).times(weights[i]).div(sum);
            expect(share.cents.minus(exact).abs().lt(1)).to.equal(true);
          });
        },
      ));
    });
  });
});
