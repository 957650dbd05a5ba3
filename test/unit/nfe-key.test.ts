import { expect } from 'chai';
import { RuleViolation } from '../../domain/errors';
import { checkNfeKey, checkReceivableNfe, checkSentNfe, composeNfeKey, nfeCheckDigit, NfeInput, normaliseNfeKey, readSentNfe } from '../../domain/nfe-key';
import { receivableFingerprint, refuseRepeatedReceivables } from '../../domain/receivable-identity';
import { ValidationFailed } from '../../domain/errors';

const ISSUER = '11222333000181';
const ASSIGNOR = { kind: 'cnpj' as const, value: ISSUER };
const key = (overrides: Partial<Parameters<typeof composeNfeKey>[0]> = {}) => composeNfeKey({ yearMonth: '2611', issuer: ISSUER, serie: 1, number: 555, code: '12345678', ...overrides });
const input = (overrides: Partial<NfeInput> = {}): NfeInput => ({ externalId: 'NF-1', loc: ['body', 'receivables', 0], key: key(), ...overrides });

function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(RuleViolation);
    expect((err as RuleViolation).status).to.equal(422);
    return (err as RuleViolation).detail as Record<string, unknown>;
  }
  throw new Error('expected a refusal');
}

/** The one character of `k` at `at` replaced by `by`, keeping everything else. */
const swap = (k: string, at: number, by: string) => `${k.slice(0, at)}${by}${k.slice(at + 1)}`;

describe('NF-e access key', () => {
  it('computes the check digit of the integration manual\'s worked example: weighted sum 644, 644 mod 11 = 6, digit 11 − 6 = 5', () => {
    expect(nfeCheckDigit('5206043300991100250655012000000780026730161')).to.equal(5);
    expect(composeNfeKey({ uf: '52', yearMonth: '0604', issuer: '33009911002506', serie: 12, number: 780, emission: '0', code: '26730161' }))
      .to.equal('52060433009911002506550120000007800267301615');
  });

  it('gives 0 when the rest is 0 or 1, and 11 − rest otherwise', () => {
    const zeros = '0'.repeat(41);
    expect(nfeCheckDigit(`${zeros}14`)).to.equal(0); // 1·3 + 4·2 = 11, rest 0
    expect(nfeCheckDigit(`${zeros}40`)).to.equal(0); // 4·3 + 0·2 = 12, rest 1
    expect(nfeCheckDigit(`${zeros}15`)).to.equal(9); // 1·3 + 5·2 = 13, rest 2
  });

  it('accepts a key built with its check digit, model 55 and 65, the issuer being the assignor, and the fields sent beside it when they agree', () => {
    expect(checkNfeKey(input({ number: '555', serie: '001', issueDate: '2026-11-05' }), ASSIGNOR)).to.deep.include({ issuer: ISSUER, model: '55', serie: '001', number: '000000555' });
    expect(checkNfeKey(input({ key: key({ model: '65' }) }), ASSIGNOR).model).to.equal('65');
  });

  it('ignores spaces (keys are printed in groups of four) and upper-cases letters', () => {
    const spaced = key().replace(/(.{4})/g, '$1 ').trim();
    expect(normaliseNfeKey(spaced)).to.equal(key());
    expect(checkReceivableNfe({ nfe_key: spaced }, { externalId: 'NF-1', loc: ['body'] }, ASSIGNOR)).to.equal(key());
    expect(checkReceivableNfe({ nfe_key: null }, { externalId: 'NF-1', loc: ['body'] }, ASSIGNOR)).to.equal(null);
  });

  it('reads the NF-e fields of a body once: text as sent, anything else absent, the total value (a number or a string) as text', () => {
    const sent = readSentNfe({ nfe_key: key(), nfe_number: '555', nfe_serie: 1, nfe_issue_date: '2026-11-05', nfe_total_value: 1234.5 });
    expect(sent).to.deep.equal({ key: key(), number: '555', serie: null, issueDate: '2026-11-05', totalValue: '1234.5' });
    expect(readSentNfe({ nfe_total_value: '1234.50' }).totalValue).to.equal('1234.50');
    expect(readSentNfe({})).to.deep.equal({ key: null, number: null, serie: null, issueDate: null, totalValue: null });
    expect(checkSentNfe(sent, { externalId: 'NF-1', loc: ['body'] }, ASSIGNOR)).to.equal(key());
    expect(refusalOf(() => checkSentNfe({ ...sent, number: '556' }, { externalId: 'NF-1', loc: ['body'] }, ASSIGNOR)).code).to.equal('NFE_NUMBER_MISMATCH');
  });

  it('accepts the alphanumeric CNPJ of the issuer inside the key, the check digit valuing letters as ASCII − 48', () => {
    const alnum = key({ issuer: '12ABC34501DE35' });
    expect(checkNfeKey(input({ key: alnum }), { kind: 'cnpj', value: '12ABC34501DE35' }).issuer).to.equal('12ABC34501DE35');
    expect(checkReceivableNfe({ nfe_key: alnum.toLowerCase() }, { externalId: 'NF-1', loc: ['body'] }, { kind: 'cnpj', value: '12ABC34501DE35' })).to.equal(alnum);
  });

  it('compares a CPF assignor (rural producer) with the issuer field as 000 + CPF', () => {
    const cpf = '52998224725';
    expect(checkNfeKey(input({ key: key({ issuer: `000${cpf}` }) }), { kind: 'cpf', value: cpf }).issuer).to.equal(`000${cpf}`);
    expect(refusalOf(() => checkNfeKey(input(), { kind: 'cpf', value: cpf })).code).to.equal('NFE_KEY_ISSUER_MISMATCH');
  });

  it('does not compare the issuer when the assignor is unknown (a simulation without one)', () => {
    expect(checkNfeKey(input({ key: key({ issuer: '99888777000100' }) }), null).issuer).to.equal('99888777000100');
  });

  const broken: [string, () => unknown, string, string][] = [
    ['43 digits', () => checkNfeKey(input({ key: key().slice(1) }), ASSIGNOR), 'NFE_KEY_MALFORMED', 'nfe_key'],
    ['45 digits', () => checkNfeKey(input({ key: `${key()}0` }), ASSIGNOR), 'NFE_KEY_MALFORMED', 'nfe_key'],
    ['a letter outside the issuer', () => checkNfeKey(input({ key: swap(key(), 30, 'A') }), ASSIGNOR), 'NFE_KEY_MALFORMED', 'nfe_key'],
    ['punctuation', () => checkNfeKey(input({ key: swap(key(), 10, '.') }), ASSIGNOR), 'NFE_KEY_MALFORMED', 'nfe_key'],
    ['a wrong check digit', () => checkNfeKey(input({ key: swap(key(), 43, String((Number(key()[43]) + 1) % 10)) }), ASSIGNOR), 'NFE_KEY_CHECK_DIGIT_MISMATCH', 'nfe_key'],
    ['one digit changed in the body', () => checkNfeKey(input({ key: swap(key(), 40, String((Number(key()[40]) + 1) % 10)) }), ASSIGNOR), 'NFE_KEY_CHECK_DIGIT_MISMATCH', 'nfe_key'],
    ['model 57 (CT-e)', () => checkNfeKey(input({ key: key({ model: '57' }) }), ASSIGNOR), 'NFE_KEY_MODEL_NOT_ACCEPTED', 'nfe_key'],
    ['another issuer', () => checkNfeKey(input({ key: key({ issuer: '99888777000100' }) }), ASSIGNOR), 'NFE_KEY_ISSUER_MISMATCH', 'nfe_key'],
    ['another number', () => checkNfeKey(input({ number: '556' }), ASSIGNOR), 'NFE_NUMBER_MISMATCH', 'nfe_number'],
    ['a number that is not one', () => checkNfeKey(input({ number: '55A' }), ASSIGNOR), 'NFE_NUMBER_MISMATCH', 'nfe_number'],
    ['another serie', () => checkNfeKey(input({ serie: '2' }), ASSIGNOR), 'NFE_SERIE_MISMATCH', 'nfe_serie'],
    ['an issue date in another month', () => checkNfeKey(input({ issueDate: '2026-10-31' }), ASSIGNOR), 'NFE_ISSUE_DATE_MISMATCH', 'nfe_issue_date'],
    ['an issue date in another year', () => checkNfeKey(input({ issueDate: '2025-11-05' }), ASSIGNOR), 'NFE_ISSUE_DATE_MISMATCH', 'nfe_issue_date'],
  ];
  for (const [what, run, code, field] of broken) {
    it(`refuses ${what} with 422 ${code} naming the receivable and ${field}`, () => {
      const detail = refusalOf(run);
      expect(detail).to.include({ code, external_id: 'NF-1', field });
      expect(detail.loc).to.deep.equal(['body', 'receivables', 0, field]);
      expect(detail.message).to.match(/^Receivable NF-1: /);
    });
  }

  it('checks in the order a client fixes them: shape before check digit before model before issuer before the fields beside it', () => {
    expect(refusalOf(() => checkNfeKey(input({ key: key({ model: '57', issuer: '99888777000100' }), number: '1' }), ASSIGNOR)).code).to.equal('NFE_KEY_MODEL_NOT_ACCEPTED');
    expect(refusalOf(() => checkNfeKey(input({ key: key({ issuer: '99888777000100' }), number: '1' }), ASSIGNOR)).code).to.equal('NFE_KEY_ISSUER_MISMATCH');
    expect(refusalOf(() => checkNfeKey(input({ number: '1', serie: '9' }), ASSIGNOR)).code).to.equal('NFE_NUMBER_MISMATCH');
  });

  it('says which value the key carries for the fields beside it', () => {
    expect(refusalOf(() => checkNfeKey(input({ number: '1' }), ASSIGNOR)).expected).to.equal('555');
    expect(refusalOf(() => checkNfeKey(input({ issueDate: '2026-01-01' }), ASSIGNOR)).expected).to.equal('2026-11');
  });
});

describe('receivable fingerprint', () => {
  const base = { nfeKey: null, backingType: 'NFE', payerDocument: ISSUER, dueDate: '2026-12-30', nfeNumber: null, nfeSerie: null, identifier: null };

  it('is the NF-e key when there is one, whatever else is sent', () => {
    expect(receivableFingerprint({ ...base, nfeKey: key(), identifier: 'x', nfeNumber: '555' })).to.equal(`nfe:${key()}`);
  });

  it('without a key: backing type, payer, due date and the NF-e number and serie (leading zeros ignored), else the identifier', () => {
    const numbered = receivableFingerprint({ ...base, nfeNumber: '000555', nfeSerie: '01', identifier: 'label' });
    expect(numbered).to.equal(receivableFingerprint({ ...base, nfeNumber: '555', nfeSerie: '1' }));
    expect(numbered).to.not.equal(receivableFingerprint({ ...base, nfeNumber: '555', nfeSerie: '2' }));
    expect(numbered).to.not.equal(receivableFingerprint({ ...base, nfeNumber: '555', nfeSerie: '1', dueDate: '2026-12-31' }));
    expect(receivableFingerprint({ ...base, identifier: ' boleto-1 ' })).to.equal(receivableFingerprint({ ...base, identifier: 'boleto-1', backingType: 'nfe' }));
    expect(receivableFingerprint({ ...base, identifier: 'boleto-1' })).to.not.equal(receivableFingerprint({ ...base, identifier: 'boleto-1', backingType: 'BOLETO' }));
  });

  it('is null without a key, a number or an identifier: nothing tells such a receivable apart', () => {
    expect(receivableFingerprint({ ...base, identifier: '  ' })).to.equal(null);
  });

  it('refuses the same receivable twice in one request at the second one, and lets receivables without a fingerprint repeat', () => {
    expect(() => refuseRepeatedReceivables(['a', null, null, 'b'], (i) => ['body', 'items', i])).to.not.throw();
    try {
      refuseRepeatedReceivables(['a', 'b', 'a'], (i) => ['body', 'items', i, 'nfe_key']);
      expect.fail('expected a refusal');
    } catch (err) {
      expect(err).to.be.instanceOf(ValidationFailed);
      expect((err as ValidationFailed).errors).to.have.length(1);
      expect((err as ValidationFailed).errors[0]).to.include({ type: 'value_error' }).and.to.have.deep.property('loc', ['body', 'items', 2, 'nfe_key']);
    }
  });
});
