import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Money } from '../../domain/money';
import { testDb } from '../support/stack';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { dueIn, receivable } from '../support/simulate';
import { buildAssignor, buildPayable, pay, payment } from '../support/payables';
import { backofficePayerPayment, payerPayment, readTitle } from '../support/titles';
import { collectOnPix } from '../support/pix-collection';
import { expectEvenTrialBalance, postedBalances } from '../support/ledger';

const kindsOf = async (column: 'payable_id' | 'title_id', id: string) =>
  (await testDb()('ledger_transactions').where({ [column]: id }).orderBy('id').select('kind', 'status')).map((row) => `${row.kind} ${row.status}`);

describe('the ledger of payables and titles', function () {
  this.timeout(180_000);
  const stack = operationsStack();

  it('books a payable opened by hand as a charge, then its payment to bank cash, a discount credit and the write-off of the rest', async () => {
    const { client } = stack;
    const { token, originatorId } = await buildOperationsIntegrator(client);
    const assignor = await buildAssignor(client, token);
    const payable = await buildPayable(client, token, assignor.id, { amount_brl: '1000.00' });
    expect((await pay(client, token, payable.id, payment({ source: 'ASSIGNOR_BANK_TRANSFER', paid_amount_brl: '300.00' }))).status).to.equal(201);
    const credit = await client.post('/v1/discount-credits', { assignor_id: assignor.id, amount_brl: '200.00', reason: 'Commercial discount' }, { token });
    expect(credit.status, credit.text).to.equal(201);
    const written = await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'forgiven' }, { token });
    expect(written.status, written.text).to.equal(200);
    expect(await kindsOf('payable_id', payable.id)).to.deep.equal(['manual_payable posted', 'payable_payment posted', 'discount_credit posted', 'write_off posted']);
    expect(await postedBalances(originatorId)).to.deep.equal({
      [`assignor_payable:${payable.id}`]: '0.00', assignor_charges_income: '1000.00', bank_cash: '300.00', discount_credit_expense: '200.00', write_off_expense: '500.00',
    });
    await expectEvenTrialBalance(originatorId);
  });

  it('books payer payments by staff and by PIX (its excess refunded), recognising the discount at the close, and overdue with recourse', async () => {
    const { client, backoffice } = stack;
    const { token, originatorId } = await buildOperationsIntegrator(client, { graceDays: 0 });
    await collectOnPix(originatorId);
    const receivables = [
      receivable({ external_id: 'staff', net_future_value: '10000.00', requested_net_future_value: '10000.00' }),
      receivable({ external_id: 'pix', net_future_value: '5000.00', requested_net_future_value: '5000.00' }),
      receivable({ external_id: 'overdue', due_date: dueIn(-1), net_future_value: '2000.00', requested_net_future_value: '2000.00' }),
    ];
    const created = await createDirect(client, token, directBody({ email: `ledger+${randomUUID()}@example.com`, receivables }));
    expect(created.status, created.text).to.equal(201);
    const titles = Object.fromEntries((created.body.titles as { id: string; external_id: string; present_value_discount: string }[]).map((t) => [t.external_id, t]));
    await untilPaid(client, token, created.body.id);

    const overdue = await eventually(async () => {
      const read = await readTitle(client, token, titles.overdue.id);
      expect(read.status).to.equal('OVERDUE');
      return read;
    });
    const [repurchase] = (await client.get(`/v1/assignor-payables?origin_title_id=${titles.overdue.id}`, { token })).body.items;
    expect(await kindsOf('title_id', titles.overdue.id)).to.deep.equal(['acquisition posted', 'overdue_recourse posted']);

    for (const amount of ['2500.00', '7500.00']) {
      const paid = await backofficePayerPayment(client, backoffice, titles.staff.id, payerPayment({ paid_amount_brl: amount }));
      expect(paid.status, paid.text).to.equal(201);
    }
    const pix = await eventually(async () => {
      const res = await client.post(`/v1/sandbox/titles/${titles.pix.id}/pix`, { amount: '5300.00' }, { token });
      expect(res.status, res.text).to.equal(202);
      return res.body as { end_to_end_id: string };
    });
    await eventually(async () => expect(await kindsOf('title_id', titles.pix.id)).to.deep.equal(['acquisition posted', 'payer_payment posted', 'refund posted']));
    const payerPaymentRow = await testDb()('ledger_transactions').where({ title_id: titles.pix.id, kind: 'payer_payment' }).first();
    expect(payerPaymentRow.pix_end_to_end_id).to.equal(pix.end_to_end_id);

    const discounts = Money.sum(Object.values(titles).map((t) => Money.of(t.present_value_discount)));
    const books = await postedBalances(originatorId);
    for (const name of ['staff', 'pix', 'overdue']) expect(books[`title_receivable:${titles[name].id}`], name).to.equal('0.00');
    // The title due yesterday was bought at its face value: it had no discount to earn.
    for (const name of ['staff', 'pix']) expect(books[`unearned_discount:${titles[name].id}`], name).to.equal('0.00');
    expect(books).to.include({
      [`assignor_payable:${repurchase.id}`]: overdue.outstanding_balance, bank_cash: '10000.00', 'psp_cash:collection': '5000.00',
      payer_overpayment: '0.00', discount_income: discounts.toString(), [`assignor_price_payable:${created.body.id}`]: '0.00',
    });
    await expectEvenTrialBalance(originatorId);
  });
});
