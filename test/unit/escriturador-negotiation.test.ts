import { expect } from 'chai';
import { DEFAULT_NEGOTIATION_TYPE, negotiationTypeFor, registrationSettings } from '../../domain/escriturador/negotiation';
import { ValidationFailed } from '../../domain/errors';

describe('the negotiation type and an originator\'s registration settings', () => {
  it('follows the holder\'s nature: a bank discounts, a secured lender takes it as collateral, anyone else acquires, with recourse or not', () => {
    expect(negotiationTypeFor('bank', true)).to.equal('desconto');
    expect(negotiationTypeFor('secured_lender', true)).to.equal('credito_garantido');
    expect(negotiationTypeFor('non_financial', true)).to.equal('aquisicao_com_regresso');
    expect(negotiationTypeFor('non_financial', false)).to.equal('aquisicao');
  });

  it('defaults to an acquisition with recourse, and stores the holder\'s CNPJ without punctuation', () => {
    expect(DEFAULT_NEGOTIATION_TYPE).to.equal('aquisicao_com_regresso');
    expect(registrationSettings({ registrar: 'sandbox', holderDocument: '11.222.333/0001-81' }))
      .to.deep.equal({ registrar: 'sandbox', holderDocument: '11222333000181', negotiationType: 'aquisicao_com_regresso' });
    expect(registrationSettings({ registrar: 'sandbox', holderDocument: '11222333000181', negotiationType: 'desconto' }).negotiationType).to.equal('desconto');
  });

  it('refuses an unknown escriturador, an invalid CNPJ and an unknown negotiation type, naming each field', () => {
    let refusal: unknown;
    try {
      registrationSettings({ registrar: 'cerc', holderDocument: '11222333000100', negotiationType: 'cessao' });
    } catch (err) {
      refusal = err;
    }
    expect(refusal).to.be.instanceOf(ValidationFailed);
    expect((refusal as ValidationFailed).errors.map((e) => [e.loc.join('.'), e.type])).to.deep.equal([
      ['registrar', 'registrar_unknown'], ['holder_document', 'holder_document_invalid'], ['negotiation_type', 'negotiation_type_unknown'],
    ]);
  });
});
