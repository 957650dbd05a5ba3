import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { disbursementKey } from '../../domain/pix-transfer';
import { sharedApi, sharedSandbox, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { untilPaid, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { pay, payment, readPayable } from '../support/payables';
import { backofficePayerPayment, operationWithTitles, payerPayment, readTitle, titlePaidEvents } from '../support/titles';

/**
 * One story over the whole service, real Temporal and the sandbox providers: an operation of two
 * titles reaches PAID; the title due yesterday turns OVERDUE at once (policy grace 0) and becomes
 * the assignor's payable; the other is paid by its payer in two parts; the operation is SETTLED;
 * the assignor repays part of the payable and the next operation nets the rest.
 */
describe('titles until paid', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let backoffice: string;
  let story: Awaited<ReturnType<typeof operationWithTitles>>;
  let payableId: string;
  const firstRepayment = payment({ paid_amount_brl: '1000.00' });

  const toPaid = (operationId: string) => untilPaid(client, token, operationId);
  const recordPayerPayment = (titleId: string, body: Record<string, unknown>) => backofficePayerPayment(client, backoffice, titleId, body);

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client, { graceDays: 0 }));
    backoffice = await loginAs(client, await buildUser());
    story = await operationWithTitles(client, token, { current: '10000.00', overdue: '5000.00' });
    await toPaid(story.operation.id);
  });

  it('turns the title left unpaid OVERDUE, opens a payable for its balance and refuses payer payments with title_balance_locked', async () => {
    const title = await eventually(async () => {
      const read = await readTitle(client, token, story.overdue!);
      expect(read.status).to.equal('OVERDUE');
      return read;
    });
    expect(title.outstanding_balance).to.equal('5000.00');
    const listed = await client.get(`/v1/titles?operation_id=${story.operation.id}&status=OVERDUE`, { token });
    expect(listed.body.items.map((t: { id: string }) => t.id)).to.deep.equal([story.overdue]);
    const payables = await client.get(`/v1/assignor-payables?origin_title_id=${story.overdue}`, { token });
    expect(payables.body.items).to.have.length(1);
    expect(payables.body.items[0]).to.include({ origin: 'TITLE_OVERDUE', amount_brl: '5000.00', status: 'OPEN', assignor_id: story.operation.assignor_id });
    payableId = payables.body.items[0].id;
    const locked = await recordPayerPayment(story.overdue!, payerPayment());
    expect(locked.status).to.equal(409);
    expect(locked.body).to.deep.equal({ detail: 'title_balance_locked' });
  });

  it('moves the other title to PAID in two payer payments, with one title.paid, and the operation to SETTLED', async () => {
    const first = await recordPayerPayment(story.current, payerPayment({ paid_amount_brl: '2500.00' }));
    expect(first.status, first.text).to.equal(201);
    expect(first.body).to.include({ title_status: 'PARTIALLY_PAID', remaining: '7500.00', operation_id: story.operation.id });
    const second = await recordPayerPayment(story.current, payerPayment({ paid_amount_brl: '7500.00' }));
    expect(second.body).to.include({ title_status: 'PAID', remaining: '0.00' });
    expect(await titlePaidEvents(story.current)).to.have.length(1);
    const settled = await untilStatus(client, token, story.operation.id, 'SETTLED');
    expect(settled.titles.map((t: { status: string }) => t.status).sort()).to.deep.equal(['OVERDUE', 'PAID']);
  });

  it('takes the payable\'s repayment in two payments; a retry replays without a second debit, and the title\'s balance follows', async () => {
    const a = await pay(client, token, payableId, firstRepayment);
    expect(a.body).to.include({ remaining: '4000.00', idempotent_replay: false });
    const b = await pay(client, token, payableId, payment({ paid_amount_brl: '1500.00' }));
    expect(b.body).to.include({ remaining: '2500.00' });
    const retry = await pay(client, token, payableId, firstRepayment);
    expect(retry.body).to.deep.equal({ ...a.body, idempotent_replay: true });
    expect(await readPayable(client, token, payableId)).to.include({ remaining: '2500.00', status: 'PARTIALLY_PAID' });
    expect(await readTitle(client, token, story.overdue!)).to.include({ status: 'OVERDUE', outstanding_balance: '2500.00' });
  });

  it('nets the open debt into the next operation of the assignor, pays the difference by PIX, and then refuses payments of the settled payable', async () => {
    const next = await createDirect(client, token, { ...story.body, receivables: [receivable({ external_id: `next-${randomUUID()}` })] });
    expect(next.status, next.text).to.equal(201);
    expect(next.body).to.include({ opr_net_liquid_value: '9750.00', other_debt_discounts: '2500.00', opr_net_present_liquid_value: '7250.00' });
    const payable = await readPayable(client, token, payableId);
    expect(payable).to.include({ status: 'PAID', remaining: '0.00' });
    expect(payable.payments.at(-1)).to.include({ source: 'OPERATION_NETTING', operation_id: next.body.id, paid_amount_brl: '2500.00' });
    expect(await readTitle(client, token, story.overdue!)).to.include({ outstanding_balance: '0.00' });

    const settled = await pay(client, token, payableId, payment({ paid_amount_brl: '1.00' }));
    expect(settled.status).to.equal(409);
    expect(settled.body).to.deep.equal({ detail: 'payable_already_settled' });

    await toPaid(next.body.id);
    const pix = await fetch(`${(await sharedSandbox()).pixUrl}/payments?idempotency_key=${disbursementKey(next.body.id, 1)}`);
    const [order] = ((await pix.json()) as { payments: Record<string, unknown>[] }).payments;
    expect(order).to.include({ amount: '7250.00', status: 'SETTLED' });
  });
});
