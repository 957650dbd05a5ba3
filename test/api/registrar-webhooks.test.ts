import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { providerSignatureHeaders } from '../../domain/provider-signature';
import type { HttpEscriturador } from '../../providers/escriturador/client';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';
import { untilPaid } from '../support/lifecycle';
import { expectEvenTrialBalance, postedBalances } from '../support/ledger';
import { eventually } from '../support/webhooks';
import { issueDuplicatas, registerAtSandbox, sandboxEscriturador } from '../support/registration';
import { payerPayment, readTitle as titleRead, simulatePayerPayment, titlePaidEvents } from '../support/titles';
import { testConfig, testDb } from '../support/stack';

const CALLBACK = '/v1/internal/registrar/callback';
type Title = { id: string; status: string; outstanding_balance: string; paid_amount: string; registration: Record<string, any> };

/**
 * The escriturador's signed webhooks: the sandbox escriturador posts them to the URL the worker
 * registered at start; a payer paying the boleto dinâmico to us (the holder) pays our title once.
 */
describe('the escriturador\'s webhooks settle our titles', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let escriturador: HttpEscriturador;
  before(async () => {
    ({ client, token, originatorId } = await startOperationsTest());
    await registerAtSandbox(originatorId);
    escriturador = await sandboxEscriturador();
  });

  /** An operation of one NF-e title of 10000.00 whose one duplicata is worth the same, PAID and registered. */
  const paidRegisteredTitle = async (): Promise<{ key: string; title: Title }> => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    const item = receivable({ external_id: 'NF-WH', ...nfe });
    await issueDuplicatas(nfe.nfe_key, [{ n_dup: '001', vencimento: item.due_date as string, valor: item.requested_net_future_value as string }]);
    const res = await createDirect(client, token, directBody({ cnpj: assignor, receivables: [item] }));
    expect(res.status, res.text).to.equal(201);
    const paid = await untilPaid(client, token, res.body.id);
    expect(paid.titles[0].registration.status).to.equal('registered');
    return { key: nfe.nfe_key, title: paid.titles[0] };
  };
  const readTitle = (id: string): Promise<Title> => titleRead(client, token, id);
  const paymentsOf = (titleId: string) => testDb()('title_payments').where({ title_id: titleId }).orderBy('created_at').select('channel', 'amount', 'external_id');
  const post = (body: string, headers: Record<string, string>) =>
    client.request('POST', CALLBACK, { rawBody: body, headers: { 'Content-Type': 'application/json', ...headers } });
  const signed = (body: string, secret = testConfig().registrar.callbackSecret!) => providerSignatureHeaders(secret, body, Math.floor(Date.now() / 1000));
  /** A settlement as the escriturador words it: the payer paid `amount` of the duplicata by its boleto dinâmico. */
  const settlementOf = (title: Title, key: string, amount: string, fields: Record<string, unknown> = {}) => JSON.stringify({
    evento: 'duplicata.settled', id: randomUUID(), duplicata_id: title.registration.duplicata_id, chave_nfe: key, n_dup: '001', titular: cnpj(),
    valor: amount, valor_pago: amount, liquidada: false, data_pagamento: new Date().toISOString(), origem: 'boleto', ...fields,
  });

  it('pays the title when the payer pays the boleto dinâmico at the escriturador: PARTIALLY_PAID, then PAID with title.paid once, registration settled, the books posted, nothing told back', async () => {
    const { key, title } = await paidRegisteredTitle();
    const part = await client.post('/v1/sandbox/registrar/settlements', { nfe_key: key, amount: '4000.00' }, { token });
    expect(part.status, part.text).to.equal(202);
    expect(part.body).to.include({ duplicata_id: title.registration.duplicata_id, installment: '001', paid_amount: '4000.00', settled: false });
    await eventually(async () => expect(await readTitle(title.id)).to.include({ status: 'PARTIALLY_PAID', paid_amount: '4000.00' }), 60_000);
    expect((await readTitle(title.id)).registration.status).to.equal('registered');

    const rest = await client.post('/v1/sandbox/registrar/settlements', { nfe_key: key, installment: '001', amount: '6000.00' }, { token });
    expect(rest.status, rest.text).to.equal(202);
    expect(rest.body).to.include({ paid_amount: '10000.00', settled: true });
    await eventually(async () => expect(await readTitle(title.id)).to.include({ status: 'PAID', outstanding_balance: '0.00' }), 60_000);
    await eventually(async () => expect((await readTitle(title.id)).registration.status).to.equal('settled'), 60_000);
    expect((await paymentsOf(title.id)).map((p) => [p.channel, p.amount])).to.deep.equal([['REGISTRAR', '4000.00'], ['REGISTRAR', '6000.00']]);
    expect(await titlePaidEvents(title.id)).to.have.length(1);
    const postings = await testDb()('ledger_transactions').where({ title_id: title.id, kind: 'payer_payment' }).select('status');
    expect(postings.map((p) => p.status)).to.deep.equal(['posted', 'posted']);
    expect((await postedBalances(originatorId))[`title_receivable:${title.id}`]).to.equal('0.00');
    await expectEvenTrialBalance(originatorId);
    // The escriturador reported these payments itself: informed back, they would count twice there.
    expect((await escriturador.status(title.registration.duplicata_id)).duplicata).to.include({ paidAmount: '10000.00', settled: true });
    const again = await client.post('/v1/sandbox/registrar/settlements', { nfe_key: key, installment: '001', amount: '1.00' }, { token });
    expect(again.status, again.text).to.equal(409);
  });

  it('refuses a missing, wrong or stale signature with 401 and writes nothing', async () => {
    const { key, title } = await paidRegisteredTitle();
    const body = settlementOf(title, key, '100.00');
    const eventsBefore = (await testDb()('registrar_events')).length;
    for (const [headers, code] of [
      [{}, 'callback_signature_missing'],
      [signed(body, 'not-the-registrar-secret-at-all'), 'callback_signature_invalid'],
      [signed(body, testConfig().callbacks.pixSecret), 'callback_signature_invalid'],
      [signed(body.replace('100.00', '900.00')), 'callback_signature_invalid'],
      [providerSignatureHeaders(testConfig().registrar.callbackSecret!, body, Math.floor(Date.now() / 1000) - 3_600), 'callback_signature_stale'],
    ] as const) {
      const res = await post(body, headers);
      expect(res.status, res.text).to.equal(401);
      expect(res.body.detail).to.equal(code);
    }
    expect(await testDb()('registrar_events')).to.have.length(eventsBefore);
    expect(await paymentsOf(title.id)).to.deep.equal([]);
    expect(await readTitle(title.id)).to.include({ status: 'WAITING_PAYMENT', paid_amount: '0.00' });
  });

  it('applies an event delivered twice once, by its id; a settlement without its fields is 422, a type it does not read is acknowledged', async () => {
    const { key, title } = await paidRegisteredTitle();
    const body = settlementOf(title, key, '2500.00');
    const first = await post(body, signed(body));
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.deep.equal({ accepted: true, outcome: 'applied' });
    // Signed afresh, as an escriturador's retry is.
    const repeat = await post(body, signed(body));
    expect(repeat.body).to.deep.equal({ accepted: true, outcome: 'repeat' });
    expect((await paymentsOf(title.id)).map((p) => [p.channel, p.amount])).to.deep.equal([['REGISTRAR', '2500.00']]);
    expect(await readTitle(title.id)).to.include({ status: 'PARTIALLY_PAID', paid_amount: '2500.00' });
    const unreadable = JSON.stringify({ evento: 'duplicata.settled', id: randomUUID() });
    const refused = await post(unreadable, signed(unreadable));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.detail.code).to.equal('registrar_event_unreadable');
    const other = JSON.stringify({ evento: 'duplicata.protestada', id: randomUUID() });
    const acknowledged = await post(other, signed(other));
    expect(acknowledged.status, acknowledged.text).to.equal(200);
    expect(acknowledged.body).to.deep.equal({ accepted: true, outcome: 'ignored' });
    expect(await readTitle(title.id)).to.include({ status: 'PARTIALLY_PAID', paid_amount: '2500.00' });
  });

  it('answers a settlement delivered again, its first answer lost before the event was recorded, as first applied, and pays nothing more though the balance is smaller since', async () => {
    const { key, title } = await paidRegisteredTitle();
    const body = settlementOf(title, key, '6000.00');
    expect((await post(body, signed(body))).body).to.deep.equal({ accepted: true, outcome: 'applied' });
    // As if the route had failed after the workflow applied the payment and before it recorded the event (an update past its deadline, a restart).
    await testDb()('registrar_events').where({ event_id: JSON.parse(body).id }).delete();
    const again = await post(body, signed(body));
    expect(again.status, again.text).to.equal(200);
    expect(again.body).to.deep.equal({ accepted: true, outcome: 'applied' });
    expect((await paymentsOf(title.id)).map((p) => [p.channel, p.amount])).to.deep.equal([['REGISTRAR', '6000.00']]);
    expect(await readTitle(title.id)).to.include({ status: 'PARTIALLY_PAID', paid_amount: '6000.00' });
  });

  it('applies nothing for a title already paid by another path, marks the registration settled, and applies up to the balance when the payer paid more', async () => {
    const { key, title } = await paidRegisteredTitle();
    expect((await simulatePayerPayment(client, token, title.id, payerPayment({ paid_amount_brl: '9000.00' }))).status).to.equal(201);
    const over = settlementOf(title, key, '1500.00');
    expect((await post(over, signed(over))).body).to.deep.equal({ accepted: true, outcome: 'applied_in_part' });
    expect(await readTitle(title.id)).to.include({ status: 'PAID', paid_amount: '10000.00' });
    const late = settlementOf(title, key, '1000.00', { liquidada: true });
    expect((await post(late, signed(late))).body).to.deep.equal({ accepted: true, outcome: 'title_closed' });
    expect((await paymentsOf(title.id)).map((p) => [p.channel, p.amount])).to.deep.equal([['SANDBOX', '9000.00'], ['REGISTRAR', '1000.00']]);
    expect(await titlePaidEvents(title.id)).to.have.length(1);
    await eventually(async () => expect((await readTitle(title.id)).registration.status).to.equal('settled'), 60_000);
  });
});
