import { expect } from 'chai';
import { ValidationFailed } from '../../domain/errors';
import { isValidCnpj, isValidCpf, parseDocument, readDocument } from '../../domain/documents';

describe('documents', () => {
  it('checks CPF digits: 529.982.247-25 is valid, one digit off is not, and repeated digits are never valid', () => {
    // first digit: Σ(5·10 + 2·9 + 9·8 + 9·7 + 8·6 + 2·5 + 2·4 + 4·3 + 7·2) = 295, 295 mod 11 = 9 → 11 − 9 = 2
    expect(isValidCpf('52998224725')).to.equal(true);
    expect(isValidCpf('52998224724')).to.equal(false);
    expect(isValidCpf('11111111111')).to.equal(false);
    expect(isValidCpf('5299822472')).to.equal(false);
  });

  it('checks numeric CNPJ digits', () => {
    expect(isValidCnpj('11222333000181')).to.equal(true);
    expect(isValidCnpj('11222333000182')).to.equal(false);
    expect(isValidCnpj('00000000000000')).to.equal(false);
  });

  it('checks the alphanumeric CNPJ with characters valued as ASCII − 48 (the Receita\'s example 12.ABC.345/01DE-35)', () => {
    expect(isValidCnpj('12ABC34501DE35')).to.equal(true);
    expect(isValidCnpj('12ABC34501DE36')).to.equal(false);
    // check digits are always numeric
    expect(isValidCnpj('12ABC34501DEA5')).to.equal(false);
  });

  it('accepts punctuation and lower case, and stores digits (upper-cased characters for the alphanumeric CNPJ)', () => {
    expect(readDocument('529.982.247-25')).to.deep.equal({ kind: 'cpf', value: '52998224725' });
    expect(readDocument('11.222.333/0001-81')).to.deep.equal({ kind: 'cnpj', value: '11222333000181' });
    expect(readDocument('12.abc.345/01de-35')).to.deep.equal({ kind: 'cnpj', value: '12ABC34501DE35' });
  });

  it('refuses with a 422 at the given loc before any write, and honours the accepted kinds', () => {
    expect(() => parseDocument('529.982.247-24', ['body', 'cpf'])).to.throw(ValidationFailed).with.property('errors').deep.equal([
      { loc: ['body', 'cpf'], msg: 'Invalid CPF: check digits do not match', type: 'value_error', input: '529.982.247-24' },
    ]);
    expect(() => parseDocument('529.982.247-25', ['body', 'cnpj'], ['cnpj'])).to.throw(ValidationFailed);
    expect(() => parseDocument(52998224725, ['body', 'cpf'])).to.throw(ValidationFailed);
    expect(readDocument('123')).to.deep.equal({ reason: 'Input should be a CPF (11 digits) or a CNPJ (14 characters); punctuation is accepted' });
  });
});
