import { expect } from 'chai';
import fc from 'fast-check';
import { MONEY_PATTERN, RATE_PATTERN } from '../../api/openapi/components';
import { Dec } from '../../domain/money';
import { MONEY_RULE, parseDecimal, RATE_RULE } from '../../domain/money-input';

/** Strings close to amounts: digits, a dot, a sign, an exponent, a comma, spaces. */
const amountLike = fc.array(fc.constantFrom('0', '0', '1', '5', '9', '.', '.', '-', 'e', ',', ' ', '+'), { maxLength: 22 }).map((chars) => chars.join(''));
const numeric = fc.tuple(fc.constantFrom('', '-', '0', '00'), fc.stringMatching(/^\d{1,18}$/), fc.constantFrom('', '.'), fc.stringMatching(/^\d{0,6}$/))
  .map(([prefix, whole, dot, fraction]) => `${prefix}${whole}${dot}${fraction}`);

describe('the OpenAPI patterns of MoneyInput and RateInput accept exactly the strings the handler accepts', () => {
  for (const [name, pattern, rule] of [['MoneyInput', MONEY_PATTERN, MONEY_RULE], ['RateInput', RATE_PATTERN, RATE_RULE]] as const) {
    it(name, () => {
      const regex = new RegExp(pattern);
      fc.assert(fc.property(fc.oneof(amountLike, numeric), (written) => {
        expect(regex.test(written), written).to.equal(parseDecimal(written, rule) instanceof Dec);
      }), { numRuns: 3000 });
    });
  }
});
