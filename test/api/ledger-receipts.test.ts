import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { providerSignatureHeaders } from '../../domain/provider-signature';
import { testConfig, testDb } from '../support/stack';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { backofficePayerPayment, payerPayment, readTitle } from '../support/titles';
import { collectOnPix, rawPsp } from '../support/pix-collection';
import { expectEvenTrialBalance, postedBalances } from '../support/ledger';

const CASES = ['retried', 'closed', 'parked'] as const;
type Case = (typeof CASES)[number];

/**
 * Every PIX the collection PSP receives is stored (`received_pix`) and booked wherever it went:
 * suspense when it matches no charge or its title refused it for now, a title's payment, or back
 * to the payer whole when its title had closed. Each title is bought at face value (R$ 5,000.00),
 * so its books hold no discount and the balances below are the PIX alone.
 */
describe('the ledger of every PIX received', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  let token: string;
  let originatorId: string;
  let pixKey: string;
  const titles = {} as Record<Case, string>;

  before(async () => {
    ({ token, originatorId } = await buildOperationsIntegrator(stack.client));
    pixKey = await collectOnPix(originatorId);
    const receivables = CASES.map((name) => receivable({ external_id: name, net_future_value: '5000.00', requested_net_future_value: '5000.00' }));
    const created = await createDirect(stack.client, token, directBody({ email: `receipts+${randomUUID()}@example.com`, receivables }));
    expect(created.status, created.text).to.equal(201);
    for (const title of created.body.titles as { id: string; external_id: Case }[]) titles[title.external_id] = title.id;
    await untilPaid(stack.client, token, created.body.id);
    // Issuing the charges registers the key's webhook at the PSP.
    for (const name of CASES) await eventually(async () => expect((await readTitle(stack.client, token, titles[name])).pix_charge).to.not.equal(null));
  });

  const payByPix = (titleId: string, body: Record<string, unknown>) => eventually(async () => {
    const res = await stack.client.post(`/v1/sandbox/titles/${titleId}/pix`, body, { token });
    expect(res.status, res.text).to.equal(202);
    return res.body as { end_to_end_id: string };
  });
  /** The PSP's webhook reporting one PIX as the PSP has it; each report signed at another second, as a PSP's retries are. */
  let signedAt = Math.floor(Date.now() / 1000);
  const reportPix = async (endToEndId: string) => {
    const body = JSON.stringify({ pix: [(await rawPsp('GET', `/pix/${endToEndId}`)).body] });
    signedAt -= 1;
    return fetch(`${stack.client.baseUrl}/v1/internal/pix-collection/pix`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', ...providerSignatureHeaders(testConfig().collection.callbackSecret!, body, signedAt) }, body,
    });
  };
  /** The title refuses this PIX's payment for a reason reconciliation has no rule for: its external_id claimed with another body. */
  const refuseFor = (titleId: string, endToEndId: string) => {
    const claim = { grain: 'title_payer_payment', scope: titleId, external_id: endToEndId };
    return {
      insert: () => testDb()('external_id_records').insert({ ...claim, request: JSON.stringify({ paid_amount_brl: '1.00', external_id: endToEndId }) }),
      lift: () => testDb()('external_id_records').where(claim).delete(),
    };
  };
  const receiptOf = (endToEndId: string) => testDb()('received_pix').where({ end_to_end_id: endToEndId }).first();
  const transactionsOfPix = async (endToEndId: string) =>
    (await testDb()('ledger_transactions').where({ pix_end_to_end_id: endToEndId }).orderBy('id').select('kind', 'status')).map((row) => `${row.kind} ${row.status}`);
  const books = async () => {
    const balances = await postedBalances(originatorId);
    return { cash: balances['psp_cash:collection'] ?? '0.00', suspense: balances.unidentified_receipts ?? '0.00', overpayment: balances.payer_overpayment ?? '0.00' };
  };
  const titleClosed = (titleId: string) => eventually(async () => expect((await readTitle(stack.client, token, titleId)).status).to.equal('PAID'));

  it('stores a PIX that matches no charge and holds it in suspense, once however often it is reported', async () => {
    const pix = await rawPsp('POST', '/sandbox/pix', { chave: pixKey, valor: '123.45', infoPagador: 'pedido 42', webhook: 'twice' });
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const { endToEndId } = pix.body as { endToEndId: string };
    await eventually(async () => expect(await receiptOf(endToEndId)).to.include({ applied_to: 'suspense', txid: null, pix_key: pixKey, amount_brl: '123.45', payer_info: 'pedido 42', originator_id: originatorId }));
    const sweep = await stack.client.post('/v1/backoffice/collection/sweep', undefined, { token: stack.backoffice });
    expect(sweep.status, sweep.text).to.equal(200);
    expect(await transactionsOfPix(endToEndId)).to.deep.equal(['unidentified_receipt posted']);
    expect(await books()).to.deep.equal({ cash: '123.45', suspense: '123.45', overpayment: '0.00' });
    await expectEvenTrialBalance(originatorId);
  });

  it('holds a PIX its title refused for now in suspense, and takes it out when the retry applies it', async () => {
    const before = await books();
    const { end_to_end_id: endToEndId } = await payByPix(titles.retried, { webhook: 'lost' });
    const refusal = refuseFor(titles.retried, endToEndId);
    await refusal.insert();
    expect((await reportPix(endToEndId)).status).to.equal(503);
    expect(await receiptOf(endToEndId)).to.include({ applied_to: 'suspense', title_id: titles.retried });
    expect(await books()).to.deep.equal({ cash: '5123.45', suspense: '5123.45', overpayment: before.overpayment });
    await refusal.lift();
    expect((await reportPix(endToEndId)).status).to.equal(200);
    await titleClosed(titles.retried);
    const payment = await testDb()('title_payments').where({ title_id: titles.retried, external_id: endToEndId }).first('id');
    expect(await receiptOf(endToEndId)).to.include({ applied_to: 'title', title_payment_id: payment.id });
    expect(await transactionsOfPix(endToEndId)).to.deep.equal(['unidentified_receipt posted', 'payer_payment posted']);
    expect(await books()).to.deep.equal({ cash: '5123.45', suspense: '123.45', overpayment: '0.00' });
    expect((await postedBalances(originatorId))[`title_receivable:${titles.retried}`]).to.equal('0.00');
    await expectEvenTrialBalance(originatorId);
  });

  it('refunds whole a PIX that reaches a title already paid: received as an overpayment, refunded pending, posted when the PSP takes it', async () => {
    const { end_to_end_id: endToEndId } = await payByPix(titles.closed, { amount: '1000.00', webhook: 'lost' });
    const paid = await backofficePayerPayment(stack.client, stack.backoffice, titles.closed, payerPayment({ paid_amount_brl: '5000.00' }));
    expect(paid.status, paid.text).to.equal(201);
    await titleClosed(titles.closed);
    expect((await reportPix(endToEndId)).status).to.equal(200);
    expect((await rawPsp('GET', `/pix/${endToEndId}`)).body).to.have.nested.property('devolucoes[0].valor', '1000.00');
    expect(await receiptOf(endToEndId)).to.include({ applied_to: 'refunded', title_payment_id: null });
    expect(await transactionsOfPix(endToEndId)).to.deep.equal(['payer_payment posted', 'refund posted']);
    expect(await books()).to.deep.equal({ cash: '5123.45', suspense: '123.45', overpayment: '0.00' });
    expect((await postedBalances(originatorId)).bank_cash).to.equal('5000.00');
    await expectEvenTrialBalance(originatorId);
  });

  it('refunds whole from suspense a PIX held there whose title was paid meanwhile', async () => {
    const { end_to_end_id: endToEndId } = await payByPix(titles.parked, { amount: '700.00', webhook: 'lost' });
    const refusal = refuseFor(titles.parked, endToEndId);
    await refusal.insert();
    expect((await reportPix(endToEndId)).status).to.equal(503);
    expect(await books()).to.include({ suspense: '823.45' });
    await refusal.lift();
    const paid = await backofficePayerPayment(stack.client, stack.backoffice, titles.parked, payerPayment({ paid_amount_brl: '5000.00' }));
    expect(paid.status, paid.text).to.equal(201);
    await titleClosed(titles.parked);
    expect((await reportPix(endToEndId)).status).to.equal(200);
    expect(await receiptOf(endToEndId)).to.include({ applied_to: 'refunded' });
    expect(await transactionsOfPix(endToEndId)).to.deep.equal(['unidentified_receipt posted', 'refund posted']);
    expect(await books()).to.deep.equal({ cash: '5123.45', suspense: '123.45', overpayment: '0.00' });
    await expectEvenTrialBalance(originatorId);
  });
});
