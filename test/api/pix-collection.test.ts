import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { crcValid, parseEmv, PIX_GUI } from '../../domain/collection/br-code';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { receivable } from './simulate.support';
import { readTitle, titlePaidEvents } from './titles.support';
import { collectOnPix, rawPsp, sandboxPsp } from './pix-collection.support';

const CASES = ['full', 'twice', 'lost', 'partial', 'over'] as const;
type Case = (typeof CASES)[number];

/**
 * Issue #31 over the whole service: an originator that collects on a PIX key gets a charge with
 * due date (`cobv`) at the sandbox PSP for each title when the operation reaches PAID; the payer
 * pays through the sandbox and the PSP's webhook (or the sweep) applies each PIX exactly once.
 */
describe('titles collected by PIX', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let backoffice: string;
  const titles = {} as Record<Case, string>;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client, { graceDays: 2 });
    token = integrator.token;
    backoffice = await loginAs(client, await buildUser());
    await collectOnPix(integrator.originatorId);
    const receivables = CASES.map((name) => receivable({ external_id: name, net_future_value: '5000.00', requested_net_future_value: '5000.00' }));
    const res = await createDirect(client, token, directBody({ email: `collection+${randomUUID()}@example.com`, receivables }));
    expect(res.status, res.text).to.equal(201);
    for (const title of res.body.titles as { id: string; external_id: Case }[]) titles[title.external_id] = title.id;
    await untilPaid(client, token, res.body.id);
  });

  const chargedTitle = (titleId: string) => eventually(async () => {
    const title = await readTitle(client, token, titleId);
    expect(title.pix_charge, 'no charge yet').to.not.equal(null);
    return title;
  });
  const titleIn = (titleId: string, status: string) => eventually(async () => {
    const title = await readTitle(client, token, titleId);
    expect(title.status).to.equal(status);
    return title;
  });
  const payByPix = async (titleId: string, body: Record<string, unknown> = {}) => {
    const res = await client.post(`/v1/sandbox/titles/${titleId}/pix`, body, { token });
    expect(res.status, res.text).to.equal(202);
    return res.body as { end_to_end_id: string; amount_brl: string };
  };
  const paymentsOf = (titleId: string) => testDb()('title_payments').where({ title_id: titleId });

  it('issues a cobv per title at PAID, for the balance, the payer and the due date, payable through the grace days', async () => {
    const title = await chargedTitle(titles.full);
    expect(title.pix_charge).to.include({ txid: titles.full.replace(/-/g, ''), status: 'ATIVA' });
    const charge = await (await sandboxPsp()).getCharge(title.pix_charge.txid);
    expect(charge).to.include({ amount: title.outstanding_balance, status: 'ATIVA', brCode: title.pix_charge.br_code });
    const dueDate = new Date(`${title.due_date}T00:00:00-03:00`);
    expect(Date.parse(title.pix_charge.expires_at) - dueDate.getTime()).to.equal(3 * 86_400_000);
  });

  it('gives the payer a BR Code that parses: EMV tags, the br.gov.bcb.pix account with the charge\'s location, a valid CRC16', async () => {
    const title = await chargedTitle(titles.full);
    const code: string = title.pix_charge.br_code;
    const fields = parseEmv(code);
    expect(fields.get('00')).to.equal('01');
    const account = parseEmv(fields.get('26')!);
    expect(account.get('00')).to.equal(PIX_GUI);
    const charge = await (await sandboxPsp()).getCharge(title.pix_charge.txid);
    expect(account.get('25')).to.equal(charge!.location);
    expect(fields.get('53')).to.equal('986');
    expect(crcValid(code)).to.equal(true);
  });

  it('moves a title paid through the sandbox to PAID with one title.paid, the PIX\'s endToEndId as the payment\'s external_id', async () => {
    await chargedTitle(titles.full);
    const pix = await payByPix(titles.full);
    expect(pix.amount_brl).to.equal('5000.00');
    const paid = await titleIn(titles.full, 'PAID');
    expect(paid.paid_amount).to.equal('5000.00');
    // The webhook's answer records the PSP's side once the workflow has applied the payment.
    await eventually(async () => expect((await readTitle(client, token, titles.full)).pix_charge.status).to.equal('CONCLUIDA'));
    const payments = await paymentsOf(titles.full);
    expect(payments.map((p) => [p.external_id, p.channel, p.amount])).to.deep.equal([[pix.end_to_end_id, 'PIX', '5000.00']]);
    expect(await titlePaidEvents(titles.full)).to.have.length(1);
  });

  it('applies a webhook delivered twice once', async () => {
    await chargedTitle(titles.twice);
    const pix = await payByPix(titles.twice, { webhook: 'twice' });
    await titleIn(titles.twice, 'PAID');
    // The second notification is already in flight: give it time to arrive and be answered.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await paymentsOf(titles.twice)).map((p) => p.external_id)).to.deep.equal([pix.end_to_end_id]);
    expect(await titlePaidEvents(titles.twice)).to.have.length(1);
    expect((await readTitle(client, token, titles.twice)).paid_amount).to.equal('5000.00');
  });

  it('finds a payment whose webhook was lost by the sweep, once', async () => {
    await chargedTitle(titles.lost);
    const pix = await payByPix(titles.lost, { webhook: 'lost' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await readTitle(client, token, titles.lost)).status).to.equal('WAITING_PAYMENT');
    const sweep = await client.post('/v1/backoffice/collection/sweep', undefined, { token: backoffice });
    expect(sweep.status, sweep.text).to.equal(200);
    expect(sweep.body.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.include(pix.end_to_end_id);
    expect((await readTitle(client, token, titles.lost)).status).to.equal('PAID');
    const again = await client.post('/v1/backoffice/collection/sweep', undefined, { token: backoffice });
    expect(again.body.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.not.include(pix.end_to_end_id);
    expect(await paymentsOf(titles.lost)).to.have.length(1);
  });

  it('leaves a partial payment PARTIALLY_PAID and revises the charge for what is left', async () => {
    const before = await chargedTitle(titles.partial);
    await payByPix(titles.partial, { amount: '1250.00' });
    const partial = await titleIn(titles.partial, 'PARTIALLY_PAID');
    expect(partial.outstanding_balance).to.equal('3750.00');
    const charge = await eventually(async () => {
      const atPsp = await (await sandboxPsp()).getCharge(before.pix_charge.txid);
      expect(atPsp!.amount).to.equal('3750.00');
      return atPsp!;
    });
    expect(charge).to.include({ status: 'ATIVA', revision: 1 });
    const rest = await payByPix(titles.partial);
    expect(rest.amount_brl).to.equal('3750.00');
    expect((await titleIn(titles.partial, 'PAID')).paid_amount).to.equal('5000.00');
  });

  it('refunds an overpayment for the excess: paid_amount stops at what was owed, the payment shows refunded_brl', async () => {
    await chargedTitle(titles.over);
    const pix = await payByPix(titles.over, { amount: '5300.00' });
    expect((await titleIn(titles.over, 'PAID')).paid_amount).to.equal('5000.00');
    const [payment] = await paymentsOf(titles.over);
    expect(payment).to.include({ amount: '5000.00', received_brl: '5300.00', refunded_brl: '300.00', late_income_brl: '0.00' });
    const atPsp = await eventually(async () => {
      const read = await rawPsp('GET', `/pix/${pix.end_to_end_id}`);
      expect((read.body as { devolucoes: unknown[] }).devolucoes).to.have.length(1);
      return read.body as { devolucoes: { valor: string; status: string }[] };
    });
    expect(atPsp.devolucoes[0]).to.include({ valor: '300.00', status: 'DEVOLVIDO' });
  });

  it('refuses to pay a title without a charge: 409 title_has_no_pix_charge', async () => {
    const other = await buildOperationsIntegrator(client);
    const res = await createDirect(client, other.token, directBody());
    const pay = await client.post(`/v1/sandbox/titles/${res.body.titles[0].id}/pix`, {}, { token: other.token });
    expect(pay.status).to.equal(409);
    expect(pay.body.detail.code).to.equal('title_has_no_pix_charge');
  });
});
