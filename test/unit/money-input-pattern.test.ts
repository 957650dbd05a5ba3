import { expect } from 'chai';
import fc from 'fast-check';
import { MONEY_NUMBER_GRID, MONEY_PATTERN, POSITIVE_MONEY_PATTERN, POSITIVE_RATE_PATTERN, RATE_PATTERN } from '../../api/openapi/components';
import { Dec } from '../../domain/money';
import { MONEY_RULE, parseDecimal, RATE_RULE } from '../../domain/money-input';

/** Strings close to amounts: digits, a dot, a sign, an exponent, a comma, spaces. */
const amountLike = fc.array(fc.constantFrom('0', '0', '1', '5', '9', '.', '.', '-', 'e', ',', ' ', '+'), { maxLength: 22 }).map((chars) => chars.join(''));
const numeric = fc.tuple(fc.constantFrom('', '-', '0', '00'), fc.stringMatching(/^\d{1,18}$/), fc.constantFrom('', '.'), fc.stringMatching(/^\d{0,6}$/))
  .map(([prefix, whole, dot, fraction]) => `${prefix}${whole}${dot}${fraction}`);

describe('the OpenAPI patterns of MoneyInput and RateInput accept exactly the strings the handler accepts', () => {
  const cases = [
    ['MoneyInput', MONEY_PATTERN, MONEY_RULE], ['RateInput', RATE_PATTERN, RATE_RULE],
    ['PositiveMoneyInput', POSITIVE_MONEY_PATTERN, { ...MONEY_RULE, positive: true }], ['PositiveRateInput', POSITIVE_RATE_PATTERN, { ...RATE_RULE, positive: true }],
  ] as const;
  for (const [name, pattern, rule] of cases) {
    it(name, () => {
      const regex = new RegExp(pattern);
      fc.assert(fc.property(fc.oneof(amountLike, numeric), (written) => {
        expect(regex.test(written), written).to.equal(parseDecimal(written, rule) instanceof Dec);
      }), { numRuns: 3000 });
    });
  }
});

/** JSON numbers: `multipleOf` read as the exact decimal the number is written as (what schemathesis does). */
const gridAdmits = (value: number, positive: boolean) => (positive ? value > 0 : value >= 0)
  && MONEY_NUMBER_GRID.some(({ multipleOf, maximum }) => value <= maximum && new Dec(String(value)).mod(String(multipleOf)).isZero());
const amountNumbers = fc.oneof(
  fc.double({ min: 0, max: 1e17, noNaN: true }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  numeric.map(Number).filter(Number.isFinite),
  fc.tuple(fc.integer({ min: 0, max: 10 ** 15 }), fc.constantFrom(1, 10, 100, 1000)).map(([units, scale]) => units / scale),
);

describe('the number branch of MoneyInput admits exactly the JSON numbers the handler reads', () => {
  for (const positive of [false, true]) {
    it(positive ? 'PositiveMoneyInput' : 'MoneyInput', () => {
      fc.assert(fc.property(amountNumbers, (value) => {
        expect(gridAdmits(value, positive), String(value)).to.equal(parseDecimal(value, { ...MONEY_RULE, positive }) instanceof Dec);
      }), { numRuns: 5000 });
    });
  }
});
