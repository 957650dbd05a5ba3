import { expect } from 'chai';
import { Money } from '../../domain/money';
import { NfeFacts, ProvenReceivable, refuseMissingNfeXml, refuseUnprovenNfe } from '../../domain/nfe-xml/proof';
import { certificatesOfBundle, TrustedRoots } from '../../platform/crypto/certificate-chain';
import { NfeSignatureInvalid, NfeXmlMalformed, openSignedNfe } from '../../platform/xml/nfe-proc';
import { NfeCa, nfeCa, NfeContent, procNfe, signNfe } from '../support/nfe-xml';

const KEY = '35261111222333000181550010000000011000000019';
const ISSUER = '11222333000181';
const PAYER = '12345678000195';
const content: NfeContent = { key: KEY, issuer: ISSUER, recipient: PAYER, installments: [{ dueDate: '2026-12-28', value: '10000.00' }] };

describe('an NF-e XML opened and its signer chained (platform)', function () {
  this.timeout(60_000);
  let ca: NfeCa;
  let roots: TrustedRoots;
  before(async () => {
    ca = await nfeCa('Unit');
    roots = new TrustedRoots(certificatesOfBundle(ca.rootPem, 'roots'));
  });

  it('reads the facts from the signed infNFe and chains the signer through the intermediate the KeyInfo carries', () => {
    const signed = openSignedNfe(procNfe(content, ca.signer));
    expect(signed.facts).to.deep.include({ key: KEY, model: '55', issuerDocument: ISSUER, recipientDocument: PAYER, installments: content.installments });
    expect(signed.facts.protocol).to.deep.equal({ key: KEY, digest: signed.facts.signedDigest });
    expect(signed.intermediates).to.have.length(1);
    expect(roots.untrustedBecause(signed.signer, signed.intermediates, signed.issuedAt)).to.equal(null);
  });

  it('trusts no chain without the intermediate, and none at a moment the signer\'s certificate was not valid', () => {
    const signed = openSignedNfe(procNfe({ ...content, issuedAt: '2020-01-01T10:00:00-03:00' }, ca.signer));
    expect(roots.untrustedBecause(signed.signer, [], new Date())).to.match(/chains to no trusted root/);
    expect(roots.untrustedBecause(signed.signer, signed.intermediates, signed.issuedAt)).to.match(/is not valid at 2020-01-01T13:00:00.000Z/);
  });

  it('believes nothing outside the signature: a second infNFe with the signed one\'s Id is refused', () => {
    const xml = procNfe(content, ca.signer, {
      edit: (signed) => signed.replace('<NFe xmlns="http://www.portalfiscal.inf.br/nfe">', `<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe${KEY}" versao="4.00"><dest><CNPJ>99999999000191</CNPJ></dest></infNFe>`),
    });
    expect(() => openSignedNfe(xml)).to.throw(NfeSignatureInvalid);
  });

  it('answers a signature of an unknown algorithm, or without its SignedInfo, as invalid, never as an unexpected error', () => {
    const unknown = procNfe(content, ca.signer, { edit: (signed) => signed.replace('xmldsig#rsa-sha1', 'xmldsig#rsa-md2') });
    expect(() => openSignedNfe(unknown)).to.throw(NfeSignatureInvalid, /cannot be checked/);
    const headless = procNfe(content, ca.signer, { edit: (signed) => signed.replace(/<SignedInfo>[\s\S]*<\/SignedInfo>/, '') });
    expect(() => openSignedNfe(headless)).to.throw(NfeSignatureInvalid, /cannot be checked/);
  });

  it('refuses a DOCTYPE, text that is not XML, and an NFe without a signature', () => {
    expect(() => openSignedNfe(`<!DOCTYPE x [<!ENTITY a "b">]>${procNfe(content, ca.signer)}`)).to.throw(NfeXmlMalformed, /DOCTYPE/);
    expect(() => openSignedNfe('<nfeProc><NFe>')).to.throw(NfeXmlMalformed);
    const unsigned = signNfe(content, ca.signer).signed.replace(/<Signature[\s\S]*<\/Signature>/, '');
    expect(() => openSignedNfe(unsigned)).to.throw(NfeXmlMalformed, /Signature is missing/);
  });
});

describe('an NF-e\'s content against its receivable (domain)', () => {
  const facts: NfeFacts = {
    key: KEY, model: '55', issuerDocument: ISSUER, recipientDocument: PAYER, installments: [{ dueDate: '2026-12-28', value: '10000.0' }],
    signedDigest: 'abc=', protocol: { key: KEY, digest: 'abc=' },
  };
  const receivable: ProvenReceivable = {
    externalId: 'R1', loc: ['body', 'receivables', 0, 'nfe_xml'], nfeKey: KEY, payerDocument: '12.345.678/0001-95', dueDate: '2026-12-28', faceValue: Money.of('10000.00'),
  };
  const codeOf = (f: NfeFacts, r: ProvenReceivable = receivable) => {
    const refusal = refuseUnprovenNfe(f, r, '11.222.333/0001-81');
    return refusal && typeof refusal.detail !== 'string' ? refusal.detail.code : null;
  };

  it('proves an NF-e whose parties match whatever their punctuation and whose installment has the face value at any scale', () => {
    expect(codeOf(facts)).to.equal(null);
  });

  it('refuses, first failure first: key, model, protocol, parties, installment', () => {
    expect(codeOf(facts, { ...receivable, nfeKey: null })).to.equal('nfe_xml_key_mismatch');
    expect(codeOf({ ...facts, protocol: { key: KEY.replace(/9$/, '8'), digest: 'abc=' } })).to.equal('nfe_xml_key_mismatch');
    expect(codeOf({ ...facts, model: '65' })).to.equal('nfe_xml_model_not_accepted');
    expect(codeOf({ ...facts, protocol: null })).to.equal('nfe_xml_digest_mismatch');
    expect(codeOf({ ...facts, recipientDocument: null })).to.equal('nfe_xml_party_mismatch');
    expect(codeOf({ ...facts, installments: [] })).to.equal('nfe_xml_installment_mismatch');
  });

  it('policy required refuses a receivable with an NF-e (model 55) key sent without its XML; optional, an NFC-e, or a receivable without a key, does not', () => {
    expect(refuseMissingNfeXml('required', receivable)?.detail).to.include({ code: 'nfe_xml_required', external_id: 'R1' });
    expect(refuseMissingNfeXml('required', { ...receivable, nfeKey: null })).to.equal(null);
    expect(refuseMissingNfeXml('required', { ...receivable, nfeKey: `${KEY.slice(0, 20)}65${KEY.slice(22)}` }), 'an NFC-e').to.equal(null);
    expect(refuseMissingNfeXml('optional', receivable)).to.equal(null);
  });
});
