import { expect } from 'chai';
import { fieldErrorsOf } from '../../api/middleware/validator-errors';

/** The validator's items as express-openapi-validator 5.6 reports them (AJV keyword in `errorCode`, instance path in `path`). */
describe('the validator errors as the contract field errors (api/middleware/validator-errors.ts)', () => {
  it('names the location as the contract does, with list indexes as numbers and the offending body value as input', () => {
    const body = { receivables: [{ amount: 12 }], extra: true };
    const errors = fieldErrorsOf([
      { path: '/body/receivables/0/amount', message: 'must be string', errorCode: 'type.openapi.validation' },
      { path: '/body/extra', message: 'must NOT have additional properties', errorCode: 'additionalProperties.openapi.validation' },
      { path: '/params/id', message: 'must match format "uuid"', errorCode: 'format.openapi.validation' },
      { path: '/query/limit', message: 'must be <= 100', errorCode: 'maximum.openapi.validation' },
      { path: '/headers/idempotency-key', message: "must have required property 'idempotency-key'", errorCode: 'required.openapi.validation' },
    ], body);
    expect(errors).to.deep.equal([
      { loc: ['body', 'receivables', 0, 'amount'], msg: 'must be string', type: 'string_type', input: 12 },
      { loc: ['body', 'extra'], msg: 'must NOT have additional properties', type: 'extra_forbidden', input: true },
      { loc: ['path', 'id'], msg: 'must match format "uuid"', type: 'uuid_parsing' },
      { loc: ['query', 'limit'], msg: 'must be <= 100', type: 'less_than_equal' },
      { loc: ['header', 'idempotency-key'], msg: "must have required property 'idempotency-key'", type: 'missing' },
    ]);
  });

  it('maps each AJV keyword to the FastAPI error type integrators branch on, and an unknown one to value_error', () => {
    const typeOf = (errorCode: string, message = 'x') => fieldErrorsOf([{ path: '/body/a', message, errorCode }], {})[0].type;
    expect(typeOf('type.openapi.validation', 'must be integer')).to.equal('int_type');
    expect(typeOf('type.openapi.validation', 'must be null')).to.equal('none_required');
    expect(typeOf('enum.openapi.validation')).to.equal('enum');
    expect(typeOf('const.openapi.validation')).to.equal('literal_error');
    expect(typeOf('minLength.openapi.validation')).to.equal('string_too_short');
    expect(typeOf('pattern.openapi.validation')).to.equal('string_pattern_mismatch');
    expect(typeOf('format.openapi.validation', 'must match format "date"')).to.equal('date_parsing');
    expect(typeOf('unevaluatedProperties.openapi.validation')).to.equal('extra_forbidden');
    expect(typeOf('exclusiveMinimum.openapi.validation')).to.equal('greater_than');
    expect(typeOf('maxItems.openapi.validation')).to.equal('too_long');
    expect(typeOf('oneOf.openapi.validation')).to.equal('value_error');
  });
});
