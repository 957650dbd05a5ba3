import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { backfillLedger } from '../../db/ledger-backfill';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilPaid, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { dueIn, receivable } from '../support/simulate';
import { buildAssignor, buildPayable, pay, payment } from '../support/payables';
import { backofficePayerPayment, payerPayment, readTitle } from '../support/titles';
import { closeTemporal } from '../support/temporal';
import { booksOf, expectEvenTrialBalance } from '../support/ledger';

/** The ledger as it was before it existed: the originator's rows removed by a superuser past the append-only triggers. */
async function eraseLedgerOf(originatorId: string): Promise<void> {
  await testDb().transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    for (const table of ['ledger_entries', 'ledger_transactions', 'ledger_accounts']) await trx(table).where({ originator_id: originatorId }).del();
  });
}

describe('npm run ledger:backfill', function () {
  this.timeout(180_000);
  let client: ApiClient;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
  });
  after(closeTemporal);

  it('posts what existed before the ledger as the flows would have, and a second run changes nothing', async () => {
    const { token, originatorId } = await buildOperationsIntegrator(client, { graceDays: 0 });
    const backoffice = await loginAs(client, await buildUser());
    const assignor = await buildAssignor(client, token);
    await buildPayable(client, token, assignor.id, { amount_brl: '1000.00' });
    await buildPayable(client, token, assignor.id, { amount_brl: '400.00' });
    const bought = await createDirect(client, token, directBody({
      cnpj: assignor.cnpj, email: assignor.email,
      receivables: [
        receivable({ external_id: 'current' }),
        receivable({ external_id: 'overdue', due_date: dueIn(-1), net_future_value: '2000.00', requested_net_future_value: '2000.00' }),
      ],
    }));
    expect(bought.status, bought.text).to.equal(201);
    const [current, overdue] = ['current', 'overdue'].map((name) => (bought.body.titles as { id: string; external_id: string }[]).find((t) => t.external_id === name)!.id);
    await untilPaid(client, token, bought.body.id);
    expect((await backofficePayerPayment(client, backoffice, current, payerPayment({ paid_amount_brl: '10000.00' }))).status).to.equal(201);
    await eventually(async () => expect((await readTitle(client, token, overdue)).status).to.equal('OVERDUE'));
    const [repurchase] = (await client.get(`/v1/assignor-payables?origin_title_id=${overdue}`, { token })).body.items;
    expect((await pay(client, token, repurchase.id, payment({ paid_amount_brl: '500.00' }))).status).to.equal(201);

    const other = await buildPayable(client, token, assignor.id, { amount_brl: '300.00' });
    expect((await client.post('/v1/discount-credits', { assignor_id: assignor.id, amount_brl: '100.00', reason: 'Goodwill' }, { token })).status).to.equal(201);
    expect((await client.post(`/v1/assignor-payables/${other.id}/write-off`, { reason: 'forgiven' }, { token })).status).to.equal(200);

    const refused = await createDirect(client, token, directBody({ email: `pix-reject+backfill-${randomUUID()}@example.com` }));
    await untilStatus(client, token, refused.body.id, 'CONTRACT_SENT');
    await signAll(client, token, refused.body.id);
    await untilStatus(client, token, refused.body.id, 'DISBURSEMENT_FAILED');
    expect((await client.post(`/v1/operations/${refused.body.id}/cancel`, { reason: 'gave up' }, { token })).status).to.equal(200);
    await eventually(async () => expect((await testDb()('ledger_transactions').where({ operation_id: refused.body.id, kind: 'reversal' })).length).to.equal(1));

    const live = await booksOf(originatorId);
    expect(live.transactions.map((t) => t.split(' ').slice(1).join(' '))).to.include.members([
      'manual_payable posted', 'netting posted', 'acquisition posted', 'payout posted', 'payer_payment posted', 'overdue_recourse posted',
      'payable_payment posted', 'discount_credit posted', 'write_off posted', 'payout voided', 'reversal posted',
    ]);
    await eraseLedgerOf(originatorId);
    expect((await booksOf(originatorId)).transactions).to.deep.equal([]);

    expect(await backfillLedger(testDb())).to.equal(live.transactions.length);
    expect(await booksOf(originatorId)).to.deep.equal(live);
    await expectEvenTrialBalance(originatorId);
    expect(await backfillLedger(testDb())).to.equal(0);
    expect(await booksOf(originatorId)).to.deep.equal(live);
  });
});
