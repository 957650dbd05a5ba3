import { expect } from 'chai';
import { prismVerdict, type PrismExchange } from '../../scripts/lib/prism-verdict.mjs';

const operations = [{ key: 'GET /v1/health' }, { key: 'POST /v1/simulate' }];
const exchange = (operation: string, overrides: Partial<PrismExchange> = {}): PrismExchange => ({
  operation, method: operation.split(' ')[0], route: operation.split(' ')[1], invalid: false, status: 200, violations: [], ...overrides,
});
const requestViolation = { location: ['request', 'body', 'receivables'], message: 'must NOT have more than 1000 items' };
const clean = () => [exchange('GET /v1/health'), exchange('POST /v1/simulate', { invalid: true, status: 422, violations: [requestViolation] })];

/** Issue #24: Prism's proxy over a black-box run passes only when it proves something. */
describe('the Prism run verdict', () => {
  it('passes when no answer or valid request broke the document, every invalid one was reported and every operation reached', () => {
    const verdict = prismVerdict(clean(), operations);
    expect(verdict.passed).to.equal(true);
    expect(verdict.line).to.match(/^\[prism\] passed: 2 requests .* reached 2 of 2 operations \(1 answered an error\); 0 answers and 0 valid requests broke the document; Prism reported 1 of the 1 requests invalid on purpose$/);
  });

  it('fails on an answer that breaks the document, even to a request invalid on purpose', () => {
    const exchanges = clean();
    exchanges[1].violations.push({ location: ['response', 'body'], message: 'must have required property detail' });
    expect(prismVerdict(exchanges, operations)).to.include({ passed: false }).and.property('line').that.includes('1 answers and 0 valid requests broke');
  });

  it('fails on a valid request Prism finds invalid, and on an invalid one it lets through (Prism did not check that operation)', () => {
    const exchanges = clean();
    exchanges[0].violations.push(requestViolation);
    expect(prismVerdict(exchanges, operations).passed).to.equal(false);
    const unnoticed = clean();
    unnoticed[1].violations = [];
    const verdict = prismVerdict(unnoticed, operations);
    expect(verdict.passed).to.equal(false);
    expect(verdict.line).to.include('Prism reported 0 of the 1 requests invalid on purpose (not: POST /v1/simulate)');
  });

  it('fails when an operation was not reached or a request reached none', () => {
    expect(prismVerdict([exchange('GET /v1/health')], operations).line).to.include('not reached: POST /v1/simulate');
    expect(prismVerdict([...clean(), exchange('GET /v1/nowhere (undocumented)')], operations).passed).to.equal(false);
  });
});
