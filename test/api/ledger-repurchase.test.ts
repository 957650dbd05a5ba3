import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Money } from '../../domain/money';
import { testDb } from '../support/stack';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { backofficePayerPayment, payerPayment, readTitle } from '../support/titles';
import { expectEvenTrialBalance, postedBalances } from '../support/ledger';

/** A refusal's code, whether `detail` is the code itself (a workflow's refusal) or holds it. */
const codeOf = (body: { detail: string | { code: string } }) => (typeof body.detail === 'string' ? body.detail : body.detail.code);

/**
 * A payable opened by hand naming a title its payer still owes repurchases it: the payable holds
 * the title's receivable from then on, and the title takes no payer payment any more.
 */
describe('the repurchase of a title by a payable opened by hand', function () {
  this.timeout(180_000);
  const stack = operationsStack();

  it('moves the open balance from the title\'s receivable to the payable, charges the rest, recognises the unearned discount, and then refuses the title\'s payer payments', async () => {
    const { client, backoffice } = stack;
    const { token, originatorId } = await buildOperationsIntegrator(client);
    const created = await createDirect(client, token, directBody({
      email: `repurchase+${randomUUID()}@example.com`, receivables: [receivable({ external_id: 'bought-back', net_future_value: '5000.00', requested_net_future_value: '5000.00' })],
    }));
    expect(created.status, created.text).to.equal(201);
    const [title] = created.body.titles as { id: string; present_value_discount: string }[];
    expect(Money.of(title.present_value_discount).gt(Money.ZERO), 'a title with a discount to recognise').to.equal(true);
    await untilPaid(client, token, created.body.id);
    const partial = await backofficePayerPayment(client, backoffice, title.id, payerPayment({ paid_amount_brl: '1000.00' }));
    expect(partial.status, partial.text).to.equal(201);
    const books = async () => postedBalances(originatorId);
    const before = await books();
    const payableBody = (amount: string) => ({ assignor_id: created.body.assignor_id, origin_title_id: title.id, amount_brl: amount, due_date: '2026-12-30', reason: 'Repurchase agreed with the assignor' });

    const below = await client.post('/v1/assignor-payables', payableBody('3999.99'), { token });
    expect(below.status, below.text).to.equal(422);
    expect(below.body.detail).to.include({ code: 'repurchase_below_open_balance', outstanding_balance: '4000.00' });
    expect(await testDb()('assignor_payables').where({ origin_title_id: title.id })).to.have.length(0);
    expect(await books()).to.deep.equal(before);

    const bought = await client.post('/v1/assignor-payables', payableBody('4100.00'), { token });
    expect(bought.status, bought.text).to.equal(201);
    expect((await readTitle(client, token, title.id)).status).to.equal('OVERDUE');
    const kinds = (await testDb()('ledger_transactions').where({ title_id: title.id }).orderBy('id').select('kind')).map((row) => row.kind);
    expect(kinds).to.deep.equal(['acquisition', 'payer_payment', 'manual_payable']);
    const after = await books();
    expect(after).to.include({
      [`title_receivable:${title.id}`]: '0.00', [`unearned_discount:${title.id}`]: '0.00', [`assignor_payable:${bought.body.id}`]: '4100.00',
      assignor_charges_income: '100.00', discount_income: Money.of(title.present_value_discount).toString(),
    });

    const refused = await backofficePayerPayment(client, backoffice, title.id, payerPayment({ paid_amount_brl: '10.00' }));
    expect(refused.status, refused.text).to.equal(409);
    expect(codeOf(refused.body)).to.equal('title_balance_locked');
    expect(await books()).to.deep.equal(after);

    // The title is closed now: another payable naming it is a charge, and its receivable stays empty.
    const charge = await client.post('/v1/assignor-payables', payableBody('50.00'), { token });
    expect(charge.status, charge.text).to.equal(201);
    expect(await books()).to.include({ [`title_receivable:${title.id}`]: '0.00', assignor_charges_income: '150.00' });
    await expectEvenTrialBalance(originatorId);
  });
});
