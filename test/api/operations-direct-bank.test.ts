import { expect } from 'chai';
import { testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { cnpj, cpf, formatCnpj } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';
import { created, rowsOf } from '../support/operation-checks';

/** Contract "Bank object" rules 1–5, and assignors and payers found by document. */
describe('POST /v1/operations/direct: bank, assignor and payers', () => {
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => ({ client, token, originatorId } = await startOperationsTest()));

  const assignorOf = async (op: { assignor_id: string }) => {
    const res = await client.get(`/v1/assignors/${op.assignor_id}`, { token });
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  /** Creates with `bank` and returns [disbursement_method of the operation, the assignor as registered]. */
  const withBank = async (bank: unknown, assignor: Record<string, unknown> = {}) => {
    const op = await created(client, token, directBody({ ...assignor, bank }));
    return [op.disbursement_method, await assignorOf(op)] as const;
  };

  describe('bank rules', () => {
    it('1. refuses a body without the bank key: 422 validation_error at [body, bank], type missing, nothing written', async () => {
      const before = await rowsOf(originatorId);
      const body = directBody();
      delete body.bank;
      const res = await createDirect(client, token, body);
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('validation_error');
      const missing = res.body.detail.errors.find((e: { loc: unknown[] }) => e.loc.join('.') === 'body.bank');
      expect(missing, res.text).to.include({ type: 'missing' });
      expect(await rowsOf(originatorId)).to.deep.equal(before);
    });

    it('2. silently pays by PIX on the document when bank is {} or any of code, agency, account is absent, null or empty', async () => {
      const incomplete = [{}, { code: '001', agency: '1234' }, { code: '001', agency: null, account: '5678-9' }, { code: '', agency: '1234', account: '5678-9' }, { agency: '1234', account: '5678-9', type: 'CC' }];
      for (const bank of incomplete) {
        const document = cnpj();
        const [method, assignor] = await withBank(bank, { cnpj: document });
        expect(method, JSON.stringify(bank)).to.equal('pix_document');
        expect(assignor).to.include({ disbursement_method: 'pix_document', pix_key_document: document, bank: null });
      }
    });

    it('2. pays by PIX on the document when use_document_pix is true, even with a complete account', async () => {
      const [method, assignor] = await withBank({ use_document_pix: true, code: '341', agency: '1', account: '2' });
      expect(method).to.equal('pix_document');
      expect(assignor.bank).to.equal(null);
    });

    it('3. uses wrong but non-empty bank data as sent, an unknown account type as CC', async () => {
      const [method, assignor] = await withBank({ code: '999', agency: '0', account: 'x-1', type: 'ZZ' });
      expect(method).to.equal('bank_account');
      expect(assignor).to.include({ disbursement_method: 'bank_account' });
      expect(assignor.bank).to.deep.equal({ code: '999', agency: '0', account: 'x-1', type: 'CC' });
      const [, savings] = await withBank({ code: '001', agency: '1', account: '2', type: 'CP' });
      expect(savings.bank.type).to.equal('CP');
    });

    it('4. keys the PIX on the CNPJ whenever the payload carries one, even for type F with a CPF; stored as digits', async () => {
      const person = { type: 'F', cpf: cpf(), cnpj: formatCnpj(cnpj()), name: 'Maria Souza' };
      const [, assignor] = await withBank({}, person);
      expect(assignor).to.include({ type: 'F', document: person.cpf, pix_key_document: person.cnpj.replace(/\D/g, '') });
      const onlyCpf = { type: 'F', cpf: cpf(), cnpj: undefined, name: 'João Lima' };
      const [, personOnly] = await withBank({}, onlyCpf);
      expect(personOnly).to.include({ document: onlyCpf.cpf, pix_key_document: onlyCpf.cpf });
    });

    it('4. refuses an invalid check digit with 422 before any write', async () => {
      const before = await rowsOf(originatorId);
      for (const assignor of [{ cnpj: '11.222.333/0001-00' }, { type: 'F', cpf: cpf(), cnpj: '11222333000100' }, { type: 'F', cpf: '123.456.789-00', cnpj: null }]) {
        const res = await createDirect(client, token, directBody(assignor));
        expect(res.status, JSON.stringify(assignor)).to.equal(422);
        expect(res.body.detail.code).to.equal('validation_error');
      }
      expect(await rowsOf(originatorId)).to.deep.equal(before);
    });

    it('5. ignores bank once the assignor has a primary account: PIX stays PIX', async () => {
      const body = directBody();
      const first = await created(client, token, body);
      const second = await created(client, token, { ...body, bank: { code: '341', agency: '1', account: '2' } });
      expect([first.disbursement_method, second.disbursement_method]).to.deep.equal(['pix_document', 'pix_document']);
      expect((await assignorOf(second)).bank).to.equal(null);
    });

    it('5. ignores bank once the assignor has a primary account: the first account stays', async () => {
      const body = directBody({ bank: { code: '341', agency: '1', account: '2', type: 'SA' } });
      await created(client, token, body);
      const second = await created(client, token, { ...body, bank: {} });
      expect(second.disbursement_method).to.equal('bank_account');
      expect((await assignorOf(second)).bank).to.deep.equal({ code: '341', agency: '1', account: '2', type: 'SA' });
    });

    it('5. applies bank to an assignor registered earlier without any account', async () => {
      const fields = { name: 'Pre Registrada Ltda', type: 'J', cnpj: cnpj(), email: 'pre@example.com' };
      expect((await client.post('/v1/assignors', fields, { token })).body.disbursement_method).to.equal(null);
      const [method, assignor] = await withBank({ code: '237', agency: '10', account: '20' }, fields);
      expect(method).to.equal('bank_account');
      expect(assignor.bank).to.deep.include({ code: '237', agency: '10', account: '20' });
    });
  });

  describe('parties by document', () => {
    const countOf = async (table: string, document: string) => (await testDb()(table).where({ originator_id: originatorId, document })).length;

    it('reuses the assignor by document, punctuation or not', async () => {
      const document = cnpj();
      const first = await created(client, token, directBody({ cnpj: document }));
      const second = await created(client, token, directBody({ cnpj: formatCnpj(document), name: 'Another Name Ltda' }));
      expect(second.assignor_id).to.equal(first.assignor_id);
      expect(await countOf('assignors', document)).to.equal(1);
    });

    it('reuses payers by document, within one operation and across operations', async () => {
      const payer = cnpj();
      const op = await created(client, token, directBody({ receivables: [receivable({ payer_document: payer }), receivable({ payer_document: formatCnpj(payer) })] }));
      const later = await created(client, token, directBody({ receivables: [receivable({ payer_document: formatCnpj(payer), payer_name: 'Renamed' })] }));
      const titles = [...op.titles, ...later.titles];
      expect(titles.map((t: { payer_document: string }) => t.payer_document)).to.deep.equal([payer, payer, payer]);
      expect(await countOf('payers', payer)).to.equal(1);
      const payerIds = await testDb()('titles').whereIn('id', titles.map((t: { id: string }) => t.id)).distinct('payer_id');
      expect(payerIds).to.have.length(1);
    });
  });
});
