import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { crcValid, parseEmv, PIX_GUI } from '../../domain/collection/br-code';
import { sharedApi, sharedWorker, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { backofficePayerPayment, operationWithTitles, payerPayment, readTitle, titlePaidEvents } from '../support/titles';
import { collectOnPix, rawPsp, sandboxPsp } from '../support/pix-collection';
import { providerSignatureHeaders } from '../../domain/provider-signature';
import { closeTemporal, temporal } from '../support/temporal';
import { recordHistory } from '../support/histories';
import { untilPaid, untilStatus } from '../support/lifecycle';
import { collectionSweepScheduleId } from '../../domain/workflow-ids';
import { addDays, businessDate } from '../../domain/pricing';
import { advanceClock, readyClock, untilReady } from '../support/test-clocks';

const CASES = ['full', 'twice', 'lost', 'raced', 'refused', 'scheduled', 'partial', 'over', 'manual', 'stuck', 'behind'] as const;
/** The sweep's two titles are smaller, so the operation stays within the policy's auto-approval (50,000.00). */
const SMALL: readonly Case[] = ['stuck', 'behind'];
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
  let operationId: string;

  after(async () => {
    // Every title has closed by now: the history of collection from PAID to SETTLED, for the replay test.
    await untilStatus(client, token, operationId, 'SETTLED');
    await recordHistory('pix-collection', operationId);
    await closeTemporal();
  });

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client, { graceDays: 2 });
    token = integrator.token;
    backoffice = await loginAs(client, await buildUser());
    await collectOnPix(integrator.originatorId);
    const receivables = CASES.map((name) => {
      const value = SMALL.includes(name) ? '2000.00' : '5000.00';
      return receivable({ external_id: name, net_future_value: value, requested_net_future_value: value });
    });
    const res = await createDirect(client, token, directBody({ email: `collection+${randomUUID()}@example.com`, receivables }));
    expect(res.status, res.text).to.equal(201);
    for (const title of res.body.titles as { id: string; external_id: Case }[]) titles[title.external_id] = title.id;
    operationId = res.body.id;
    await untilPaid(client, token, operationId);
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
  /** The PSP's webhook reporting one PIX as the PSP has it, signed at `signedAt` (epoch seconds). */
  const reportPix = async (endToEndId: string, signedAt: number) => {
    const body = JSON.stringify({ pix: [(await rawPsp('GET', `/pix/${endToEndId}`)).body] });
    return fetch(`${client.baseUrl}/v1/internal/pix-collection/pix`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', ...providerSignatureHeaders(testConfig().collection.callbackSecret!, body, signedAt) }, body,
    });
  };

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

  it('applies a PIX reported many times at once (webhook repeats racing sweeps) once, and never refunds it', async () => {
    // The fault run once found a title PAID by its PIX and that PIX refunded too: a repeat had read
    // "no payment yet", then the title closed by that very PIX, and sent it all back as too late.
    await chargedTitle(titles.raced);
    const pix = await payByPix(titles.raced, { webhook: 'lost' });
    const now = Math.floor(Date.now() / 1000);
    // Each repeat is signed at another second, as a PSP's retries are, so none is refused as a replayed signature.
    const repeat = (i: number) => new Promise<number>((resolve, reject) => setTimeout(() => {
      reportPix(pix.end_to_end_id, now - i).then((res) => resolve(res.status), reject);
    }, i * 10));
    const sweep = () => client.post('/v1/backoffice/collection/sweep', undefined, { token: backoffice }).then((res) => res.status);
    const answers = await Promise.all([...Array.from({ length: 12 }, (_, i) => repeat(i)), sweep(), sweep()]);
    // 503 is the contract's "not now, send it again" (SDK core 1.24 sometimes gives an update of such
    // a burst back unprocessed): the PSP's retry, signed later, must then be applied as the others.
    expect(answers.every((status) => status === 200 || status === 503), String(answers)).to.equal(true);
    for (const [i, status] of answers.entries()) if (status === 503) expect((await reportPix(pix.end_to_end_id, now + 1 + i)).status).to.equal(200);
    expect((await paymentsOf(titles.raced)).map((p) => [p.external_id, p.amount, p.refunded_brl])).to.deep.equal([[pix.end_to_end_id, '5000.00', '0.00']]);
    expect((await readTitle(client, token, titles.raced))).to.include({ status: 'PAID', paid_amount: '5000.00' });
    expect((await rawPsp('GET', `/pix/${pix.end_to_end_id}`)).body).to.have.property('devolucoes').that.deep.equals([]);
  });

  it('leaves a PIX whose payment its title refuses for a reason it has no rule for unapplied, answers the PSP 503 (not the payment route\'s 409), and applies it on the retry', async () => {
    await chargedTitle(titles.refused);
    const pix = await payByPix(titles.refused, { webhook: 'lost' });
    // A claim of this endToEndId with another body: the payment is refused 409 external_id_reused_with_different_body.
    const claim = { grain: 'title_payer_payment', scope: titles.refused, external_id: pix.end_to_end_id };
    await testDb()('external_id_records').insert({ ...claim, request: JSON.stringify({ paid_amount_brl: '1.00', external_id: pix.end_to_end_id }) });
    const now = Math.floor(Date.now() / 1000);
    const refused = await reportPix(pix.end_to_end_id, now);
    expect(refused.status).to.equal(503);
    expect(await refused.json()).to.deep.equal({ detail: 'title_payment_unavailable' });
    expect(await paymentsOf(titles.refused)).to.have.length(0);
    await testDb()('external_id_records').where(claim).delete();
    const retried = await reportPix(pix.end_to_end_id, now - 1);
    expect(retried.status).to.equal(200);
    await titleIn(titles.refused, 'PAID');
    expect((await paymentsOf(titles.refused)).map((p) => p.external_id)).to.deep.equal([pix.end_to_end_id]);
  });

  it('goes on past a PIX it cannot apply: applies the PIX listed after it, answers 503 naming the one left, and applies that one on a later run', async () => {
    await chargedTitle(titles.stuck);
    await chargedTitle(titles.behind);
    // Listed in the order received: the PIX the sweep cannot apply comes first.
    const stuck = await payByPix(titles.stuck, { webhook: 'lost' });
    const behind = await payByPix(titles.behind, { webhook: 'lost' });
    // While a claim of its endToEndId with another body stands, the stuck title refuses its payment (as in the test above).
    const claim = { grain: 'title_payer_payment', scope: titles.stuck, external_id: stuck.end_to_end_id };
    await testDb()('external_id_records').insert({ ...claim, request: JSON.stringify({ paid_amount_brl: '1.00', external_id: stuck.end_to_end_id }) });
    try {
      const sweep = await client.post('/v1/backoffice/collection/sweep', undefined, { token: backoffice });
      expect((await paymentsOf(titles.behind)).map((p) => [p.external_id, p.recorded_by]), 'the PIX after the stuck one').to.deep.equal([[behind.end_to_end_id, 'psp:sweep']]);
      expect(await readTitle(client, token, titles.behind)).to.include({ status: 'PAID', paid_amount: '2000.00' });
      expect(await paymentsOf(titles.stuck)).to.have.length(0);
      // Still a failure for its caller (the Schedule's activity retries on it), naming what it applied and what it left.
      expect(sweep.status, sweep.text).to.equal(503);
      expect(sweep.body.detail.code).to.equal('collection_sweep_incomplete');
      expect(sweep.body.detail.unapplied).to.deep.include({ end_to_end_id: stuck.end_to_end_id, txid: titles.stuck.replace(/-/g, ''), code: 'title_payment_unavailable' });
      expect(sweep.body.detail.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.include(behind.end_to_end_id);
    } finally {
      await testDb()('external_id_records').where(claim).delete();
    }
    const again = await client.post('/v1/backoffice/collection/sweep', undefined, { token: backoffice });
    expect(again.status, again.text).to.equal(200);
    expect(again.body.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.include(stuck.end_to_end_id);
    expect(await readTitle(client, token, titles.stuck)).to.include({ status: 'PAID', paid_amount: '2000.00' });
    expect((await paymentsOf(titles.behind)).map((p) => p.external_id)).to.deep.equal([behind.end_to_end_id]);
  });

  it('sweeps every hour by a Temporal Schedule, whose run applies a payment whose webhook was lost', async () => {
    await chargedTitle(titles.scheduled);
    const pix = await payByPix(titles.scheduled, { webhook: 'lost' });
    const schedule = (await temporal()).schedule.getHandle(collectionSweepScheduleId(testConfig().temporal.taskQueue));
    const described = await schedule.describe();
    expect(described.spec.intervals?.[0]?.every).to.equal(3_600_000);
    await schedule.trigger();
    await titleIn(titles.scheduled, 'PAID');
    expect((await paymentsOf(titles.scheduled)).map((p) => [p.external_id, p.recorded_by])).to.deep.equal([[pix.end_to_end_id, 'psp:sweep']]);
  });

  it('removes the charge at the PSP when the title is paid another way', async () => {
    const title = await chargedTitle(titles.manual);
    const res = await backofficePayerPayment(client, backoffice, titles.manual, payerPayment({ paid_amount_brl: '5000.00' }));
    expect(res.status, res.text).to.equal(201);
    await eventually(async () => expect((await readTitle(client, token, titles.manual)).pix_charge.status).to.equal('REMOVIDA_PELO_USUARIO_RECEBEDOR'));
    expect((await (await sandboxPsp()).getCharge(title.pix_charge.txid))!.status).to.equal('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const late = await client.post(`/v1/sandbox/titles/${titles.manual}/pix`, {}, { token });
    expect(late.status).to.equal(409);
    expect(late.body.detail.code).to.equal('pix_charge_not_active');
  });

  it('refuses a webhook that is not signed with the collection secret: 401, nothing applied', async () => {
    const body = JSON.stringify({ pix: [{ endToEndId: 'E99999008202601010000ABCDEFGHIJK', txid: titles.full.replace(/-/g, ''), valor: '1.00', horario: new Date().toISOString() }] });
    const post = (headers: Record<string, string>) => fetch(`${client.baseUrl}/v1/internal/pix-collection/pix`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
    expect((await post({})).status).to.equal(401);
    expect((await post(providerSignatureHeaders(testConfig().callbacks.pixSecret, body, Math.floor(Date.now() / 1000)))).status).to.equal(401);
  });

  it('takes a signed webhook whose work failed, sent again, for a retry and not a replay: it is worked again', async () => {
    // A PIX the PSP does not know against a paid title: it goes back whole, and the PSP refuses that refund (503).
    await titleIn(titles.full, 'PAID');
    const body = JSON.stringify({ pix: [{ endToEndId: `E99999008202601010000${randomUUID().replace(/-/g, '').slice(0, 11)}`, txid: titles.full.replace(/-/g, ''), valor: '1.00', horario: new Date().toISOString() }] });
    const headers = { 'Content-Type': 'application/json', ...providerSignatureHeaders(testConfig().collection.callbackSecret!, body, Math.floor(Date.now() / 1000)) };
    const post = () => fetch(`${client.baseUrl}/v1/internal/pix-collection/pix`, { method: 'POST', headers, body });
    const first = await post();
    expect(first.status, await first.text()).to.equal(503);
    // Had its signature been kept, this same request would be a replay, answered 200 with nothing done.
    const again = await post();
    expect(again.status, await again.text()).to.equal(503);
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

/** A collecting originator's operation, PAID, of a title due in 30 days (10,000.00) and one due yesterday (2,000.00). */
async function paidWithTitleDueYesterday(graceDays: number) {
  const client = new ApiClient((await sharedApi()).url);
  await sharedWorker();
  const integrator = await buildOperationsIntegrator(client, { graceDays });
  await collectOnPix(integrator.originatorId);
  const story = await operationWithTitles(client, integrator.token, { current: '10000.00', overdue: '2000.00' });
  await untilPaid(client, integrator.token, story.operation.id);
  return { client, integrator, story };
}

describe('a PIX charge of a title that turns OVERDUE', function () {
  this.timeout(180_000);

  it('is removed at the PSP with one pix_charge.expired event', async () => {
    const { client, integrator, story } = await paidWithTitleDueYesterday(0);
    const title = await eventually(async () => {
      const read = await readTitle(client, integrator.token, story.overdue!);
      expect(read.status).to.equal('OVERDUE');
      expect(read.pix_charge?.status).to.equal('REMOVIDA_PELO_USUARIO_RECEBEDOR');
      return read;
    });
    const events = await testDb()('events').where({ event_type: 'pix_charge.expired' }).whereRaw("data->>'title_id' = ?", [story.overdue]);
    expect(events).to.have.length(1);
    expect(events[0].data).to.include({ txid: title.pix_charge.txid, outstanding_balance: '2000.00' });
    expect((await readTitle(client, integrator.token, story.current)).pix_charge.status).to.equal('ATIVA');
    // The other title paid by its payer, the operation settles: its whole history, for the replay test.
    await client.post(`/v1/sandbox/titles/${story.current}/pix`, {}, { token: integrator.token });
    await untilStatus(client, integrator.token, story.operation.id, 'SETTLED');
    await recordHistory('pix-charge-expired', story.operation.id);
  });
});

describe('a PIX paid after the due date', function () {
  this.timeout(180_000);

  it('carries the policy\'s fine and interest, recorded as late income apart from the principal', async () => {
    // Due yesterday with 5 grace days: payable, late by one day.
    const { client, integrator, story } = await paidWithTitleDueYesterday(5);
    await eventually(async () => expect((await readTitle(client, integrator.token, story.overdue!)).pix_charge).to.not.equal(null));
    const pay = await client.post(`/v1/sandbox/titles/${story.overdue}/pix`, {}, { token: integrator.token });
    expect(pay.status, pay.text).to.equal(202);
    // 2 % fine on 2,000.00 and 1 % a month for one day: 40.00 + 0.67.
    expect(pay.body.amount_brl).to.equal('2040.67');
    const paid = await eventually(async () => {
      const read = await readTitle(client, integrator.token, story.overdue!);
      expect(read.status).to.equal('PAID');
      return read;
    });
    expect(paid.paid_amount).to.equal('2000.00');
    const [payment] = await testDb()('title_payments').where({ title_id: story.overdue });
    expect(payment).to.include({ amount: '2000.00', received_brl: '2040.67', late_income_brl: '40.67', refunded_brl: '0.00', external_id: pay.body.end_to_end_id });
  });
});

describe('PIX charges on a test clock', function () {
  this.timeout(240_000);
  const DAY_MS = 86_400_000;
  // Sixty days behind real time: by the wall clock both titles are long past due (and past their
  // charges' validity); only the clock's time can say one is early and the other a day late.
  const start = new Date(Math.floor((Date.now() - 60 * DAY_MS) / DAY_MS) * DAY_MS + 15 * 3_600_000).toISOString();
  const startDate = businessDate(new Date(start));
  let client: ApiClient;
  let token: string;
  let clock: { id: string };
  const titles = {} as Record<'early' | 'late', string>;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client, { graceDays: 5 });
    token = integrator.token;
    await collectOnPix(integrator.originatorId);
    clock = await readyClock(client, token, start);
    const res = await createDirect(client, token, directBody({
      email: `collection-clock+${randomUUID()}@example.com`, test_clock_id: clock.id,
      receivables: [
        receivable({ external_id: 'early', due_date: addDays(startDate, 30), net_future_value: '10000.00', requested_net_future_value: '10000.00' }),
        receivable({ external_id: 'late', due_date: addDays(startDate, 40), net_future_value: '3000.00', requested_net_future_value: '3000.00' }),
      ],
    }));
    expect(res.status, res.text).to.equal(201);
    for (const title of res.body.titles as { id: string; external_id: 'early' | 'late' }[]) titles[title.external_id] = title.id;
    await untilPaid(client, token, res.body.id);
    for (const id of Object.values(titles)) await eventually(async () => expect((await readTitle(client, token, id)).pix_charge).to.not.equal(null));
  });

  const paymentOf = async (titleId: string) => {
    const rows = await testDb()('title_payments').where({ title_id: titleId });
    expect(rows).to.have.length(1);
    return rows[0];
  };

  it('pays a title before its due date in the clock\'s time without fine or interest, at the clock\'s time', async () => {
    const pay = await client.post(`/v1/sandbox/titles/${titles.early}/pix`, {}, { token });
    expect(pay.status, pay.text).to.equal(202);
    expect(pay.body).to.include({ amount_brl: '10000.00', paid_at: start });
    await eventually(async () => expect((await readTitle(client, token, titles.early)).status).to.equal('PAID'));
    const payment = await paymentOf(titles.early);
    expect(payment).to.include({ amount: '10000.00', received_brl: '10000.00', late_income_brl: '0.00', external_id: pay.body.end_to_end_id });
    expect(payment.paid_at.toISOString()).to.equal(start);
  });

  it('pays a title the clock has taken a day past its due date (within grace) with the fine and a day\'s interest as late income; the sweep finds it when its webhook is lost', async () => {
    const dayLate = new Date(Date.parse(start) + 41 * DAY_MS).toISOString();
    const advanced = await advanceClock(client, token, clock.id, dayLate);
    expect(advanced.status, advanced.text).to.equal(200);
    await untilReady(client, token, clock.id);
    expect((await readTitle(client, token, titles.late)).status).to.equal('WAITING_PAYMENT');
    const pay = await client.post(`/v1/sandbox/titles/${titles.late}/pix`, { webhook: 'lost' }, { token });
    expect(pay.status, pay.text).to.equal(202);
    // 2 % fine on 3,000.00 and 1 % a month for one day (not the twenty the wall clock counts): 60.00 + 1.00.
    expect(pay.body).to.include({ amount_brl: '3061.00', paid_at: dayLate });
    const sweep = await client.post('/v1/backoffice/collection/sweep', undefined, { token: await loginAs(client, await buildUser()) });
    expect(sweep.status, sweep.text).to.equal(200);
    expect(sweep.body.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.include(pay.body.end_to_end_id);
    const paid = await readTitle(client, token, titles.late);
    expect(paid).to.include({ status: 'PAID', paid_amount: '3000.00' });
    const payment = await paymentOf(titles.late);
    expect(payment).to.include({ amount: '3000.00', received_brl: '3061.00', late_income_brl: '61.00', refunded_brl: '0.00', recorded_by: 'psp:sweep' });
    expect(payment.paid_at.toISOString()).to.equal(dayLate);
  });
});
