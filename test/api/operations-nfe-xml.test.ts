import { expect } from 'chai';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository } from '../../db/repositories/products';
import type { NfeXmlPolicy } from '../../domain/nfe-xml/proof';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from '../support/simulate';
import { anotherApi, testConfig, testDb } from '../support/stack';
import { anticipationBody, requestAnticipation, stockBody, stocked, stockItem } from '../support/stock';
import { base64, NfeCa, nfeCa, NfeContent, procNfe } from '../support/nfe-xml';

/**
 * A receivable's NF-e proven by its XML at creation: an api that trusts a CA made for this run,
 * NF-e XML its issuer signed under that CA, and what each failure answers. Nothing is written on
 * a refusal.
 */
describe('creation proves each NF-e sent with its XML', function () {
  this.timeout(120_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let trusted: NfeCa;
  let stranger: NfeCa;

  before(async () => {
    [trusted, stranger] = [await nfeCa('Teste ICP'), await nfeCa('Estranha')];
    client = new ApiClient((await anotherApi({ NFE_XML_TRUSTED_ROOTS: trusted.rootPem })).url);
    ({ token, originatorId } = await buildOperationsIntegrator(client));
  });

  /** A direct body of one receivable with an NF-e of the assignor, and the NF-e content that backs it. */
  const backed = () => {
    const assignor = cnpj();
    const item = receivable({ external_id: 'NF-XML', ...nfeOf(assignor) });
    const content: NfeContent = {
      key: item.nfe_key as string, issuer: assignor, recipient: item.payer_document as string,
      installments: [{ dueDate: '2030-01-01', value: '1.00' }, { dueDate: item.due_date as string, value: '10000.00' }],
    };
    return { assignor, item, content };
  };
  const withXml = (assignor: string, item: Record<string, unknown>, xml: string, overrides: Record<string, unknown> = {}) =>
    directBody({ cnpj: assignor, receivables: [receivable(), { ...item, nfe_xml: base64(xml) }], ...overrides });
  const operationsTotal = async () => (await client.get('/v1/operations', { token })).body.total as number;

  it('creates the operation when the XML is the receivable\'s NF-e, signed under a trusted root, and stores it sealed', async () => {
    const { assignor, item, content } = backed();
    const xml = procNfe(content, trusted.signer);
    const res = await createDirect(client, token, withXml(assignor, item, xml));
    expect(res.status, res.text).to.equal(201);
    const title = res.body.titles.find((t: { external_id: string }) => t.external_id === 'NF-XML');
    const stored = await testDb()('title_nfe_xml').where({ title_id: title.id });
    expect(stored).to.have.length(1);
    expect(stored[0].sealed_xml).to.match(/^enc:v1:/).and.not.include(content.recipient);
    expect(new CipherRing(testConfig().payloadKeys).openText(stored[0].sealed_xml)).to.equal(xml);
    // The workflow starts with ids alone: the XML never reaches its history.
    const [start] = await testDb()('workflow_outbox').where('workflow_id', 'like', `%${res.body.id}%`);
    expect(JSON.stringify(start)).to.include(res.body.id).and.not.include(content.recipient).and.not.include('nfeProc');
  });

  const refusals: [string, string, (b: ReturnType<typeof backed>) => string, Record<string, unknown>?][] = [
    ['an altered value', 'nfe_xml_signature_invalid', (b) => procNfe(b.content, trusted.signer, { edit: (signed) => signed.replace('<vDup>10000.00</vDup>', '<vDup>90000.00</vDup>') })],
    ['a broken signature', 'nfe_xml_signature_invalid', (b) => procNfe(b.content, trusted.signer, {
      edit: (signed) => signed.replace(/<SignatureValue>(.)/, (_, first: string) => `<SignatureValue>${first === 'A' ? 'B' : 'A'}`),
    })],
    ['a signer under an untrusted CA', 'nfe_xml_untrusted_certificate', (b) => procNfe(b.content, stranger.signer)],
    ['a protocol whose digVal is not the signed digest', 'nfe_xml_digest_mismatch', (b) => procNfe(b.content, trusted.signer, { digVal: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' })],
    ['a swapped recipient', 'nfe_xml_party_mismatch', (b) => procNfe({ ...b.content, recipient: cnpj() }, trusted.signer), { party: 'recipient' }],
    ['another issuer', 'nfe_xml_party_mismatch', (b) => procNfe({ ...b.content, issuer: cnpj() }, trusted.signer), { party: 'issuer' }],
    ['no installment of the receivable\'s value', 'nfe_xml_installment_mismatch', (b) => procNfe({ ...b.content, installments: [{ dueDate: b.item.due_date as string, value: '9999.99' }] }, trusted.signer)],
    ['no installment on the receivable\'s due date', 'nfe_xml_installment_mismatch', (b) => procNfe({ ...b.content, installments: [{ dueDate: '2030-01-01', value: '10000.00' }] }, trusted.signer)],
    ['an NFC-e (model 65) under the NF-e\'s key', 'nfe_xml_model_not_accepted', (b) => procNfe({ ...b.content, model: '65' }, trusted.signer), { model: '65' }],
    ['another NF-e\'s key', 'nfe_xml_key_mismatch', (b) => procNfe({ ...b.content, key: nfeOf(b.assignor).nfe_key }, trusted.signer)],
    ['text that is not XML', 'nfe_xml_malformed', () => 'this is not an NF-e'],
  ];
  for (const [what, code, xmlOf, extra] of refusals) {
    it(`refuses ${what} with 422 ${code} naming the receivable; nothing is written`, async () => {
      const b = backed();
      const total = await operationsTotal();
      const res = await createDirect(client, token, withXml(b.assignor, b.item, xmlOf(b)));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail).to.include({ code, external_id: 'NF-XML', ...extra });
      expect(res.body.detail.loc).to.deep.equal(['body', 'receivables', 1, 'nfe_xml']);
      expect(res.body.detail.message).to.match(/^Receivable NF-XML: /);
      expect(await operationsTotal()).to.equal(total);
    });
  }

  it('POST /v1/simulate accepts nfe_xml and does not verify it: a quote proves nothing and stores nothing', async () => {
    const b = backed();
    const item = { ...b.item, nfe_xml: base64(procNfe({ ...b.content, recipient: cnpj() }, stranger.signer)) };
    const res = await client.post('/v1/simulate', { assignor_document: b.assignor, receivables: [item] }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.receivables).to.have.length(1);
  });

  const buildProduct = (nfeXml: NfeXmlPolicy) => new ProductsRepository(testDb(), originatorId).create({
    name: `NF-e XML ${nfeXml}`, description: null, minMonthlyRatePct: new Dec(0), maxMonthlyRatePct: new Dec(10), minTermDays: 0, maxTermDays: 365,
    minValueBrl: Money.of('1'), maxValueBrl: Money.of('1000000'), active: true, nfeXml,
  });

  it('a product with nfe_xml required refuses a receivable with an NF-e key and no XML (422 nfe_xml_required), and takes it with its XML', async () => {
    const product = await buildProduct('required');
    const listed = (await client.get('/v1/products?limit=100', { token })).body.items.find((p: { product_id: string }) => p.product_id === product.id);
    expect(listed).to.include({ nfe_xml: 'required' });
    const { assignor, item, content } = backed();
    const total = await operationsTotal();
    const refused = await createDirect(client, token, directBody({ cnpj: assignor, product_id: product.id, receivables: [receivable(), item] }));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.detail).to.include({ code: 'nfe_xml_required', external_id: 'NF-XML' });
    expect(refused.body.detail.loc).to.deep.equal(['body', 'receivables', 1, 'nfe_xml']);
    expect(await operationsTotal()).to.equal(total);
    // The receivable without an NF-e key needs no XML.
    const created = await createDirect(client, token, withXml(assignor, item, procNfe(content, trusted.signer), { product_id: product.id }));
    expect(created.status, created.text).to.equal(201);
  });

  it('a product with nfe_xml optional (the default) takes a receivable with an NF-e key and no XML', async () => {
    const product = await buildProduct('optional');
    const { assignor, item } = backed();
    expect((await createDirect(client, token, directBody({ cnpj: assignor, product_id: product.id, receivables: [item] }))).status).to.equal(201);
  });

  describe('stock anticipation', () => {
    const stockedWithNfe = async () => {
      const { assignor, item, content } = backed();
      const [stockedItem] = await stocked(client, token, stockBody({ cnpj: assignor, items: [stockItem(item)] }));
      return { stockedItem, content };
    };

    it('proves an item\'s NF-e given in nfe_xmls, and refuses a bad one naming its place in nfe_xmls', async () => {
      const { stockedItem, content } = await stockedWithNfe();
      const bad = await requestAnticipation(client, token, anticipationBody([stockedItem.id], '10000.00', {
        nfe_xmls: [{ stock_item_id: stockedItem.id, nfe_xml: base64(procNfe({ ...content, recipient: cnpj() }, trusted.signer)) }],
      }));
      expect(bad.status, bad.text).to.equal(422);
      expect(bad.body.detail).to.include({ code: 'nfe_xml_party_mismatch', party: 'recipient' });
      expect(bad.body.detail.loc).to.deep.equal(['body', 'nfe_xmls', 0, 'nfe_xml']);
      expect((await client.get(`/v1/stock/${stockedItem.id}`, { token })).body.status).to.equal('IN_STOCK');
      const good = await requestAnticipation(client, token, anticipationBody([stockedItem.id], '10000.00', {
        nfe_xmls: [{ stock_item_id: stockedItem.id, nfe_xml: base64(procNfe(content, trusted.signer)) }],
      }));
      expect(good.status, good.text).to.equal(201);
    });

    it('refuses an nfe_xmls entry for an item not selected (422 validation_error at its stock_item_id)', async () => {
      const { stockedItem, content } = await stockedWithNfe();
      const other = await stockedWithNfe();
      const res = await requestAnticipation(client, token, anticipationBody([stockedItem.id], '10000.00', {
        nfe_xmls: [{ stock_item_id: other.stockedItem.id, nfe_xml: base64(procNfe(content, trusted.signer)) }],
      }));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail.code).to.equal('validation_error');
      expect(res.body.detail.errors[0].loc).to.deep.equal(['body', 'nfe_xmls', 0, 'stock_item_id']);
    });

    it('a product with nfe_xml required refuses an item with an NF-e key and no XML, naming the item', async () => {
      const product = await buildProduct('required');
      const { stockedItem } = await stockedWithNfe();
      const res = await requestAnticipation(client, token, anticipationBody([stockedItem.id], '10000.00', { product_id: product.id }));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail).to.include({ code: 'nfe_xml_required' });
      expect(res.body.detail.loc).to.deep.equal(['body', 'stock_item_ids', 0]);
    });
  });
});
