import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { auditLedger } from '../../scripts/lib/chaos-ledger-audit.mjs';
import { testConfig, testDb } from '../support/stack';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { signAll, untilPaid, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { buildAssignor, buildPayable } from '../support/payables';
import { expectEvenTrialBalance, postedBalances, transactionsOf } from '../support/ledger';

/** OPERATIONS_POLICY prices the default receivable, 10,000.00 due in 30 days, at 250.00 of discount: 9,750.00 liquid. */
describe('the ledger of an operation, from creation to payout', () => {
  const stack = operationsStack();
  const started = Date.now();
  const titleOf = async (operationId: string) => (await testDb()('titles').where({ operation_id: operationId }).first('id')).id as string;
  const retryDisbursement = async (id: string) => {
    const res = await stack.client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
  };

  it('keeps netting pending from creation, buys the title at DISBURSING and posts the payout when the PSP settles; the price payable ends at zero', async () => {
    const assignor = await buildAssignor(stack.client, stack.token);
    const payable = await buildPayable(stack.client, stack.token, assignor.id, { amount_brl: '1000.00' });
    const created = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor.cnpj, email: assignor.email }));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    expect(await transactionsOf(id)).to.deep.equal(['netting pending']);
    await untilPaid(stack.client, stack.token, id);
    expect(await transactionsOf(id)).to.deep.equal(['netting posted', 'acquisition posted', 'payout posted']);
    const title = await titleOf(id);
    expect(await postedBalances(stack.originatorId)).to.include({
      [`title_receivable:${title}`]: '10000.00', [`unearned_discount:${title}`]: '250.00',
      [`assignor_price_payable:${id}`]: '0.00', [`assignor_payable:${payable.id}`]: '0.00', 'psp_cash:payout': '-8750.00',
    });
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('sends no PIX for an operation whose netting consumed the whole price, and expects no PSP line', async () => {
    const assignor = await buildAssignor(stack.client, stack.token);
    await buildPayable(stack.client, stack.token, assignor.id, { amount_brl: '20000.00' });
    const created = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor.cnpj, email: assignor.email }));
    expect(created.body).to.include({ opr_net_present_liquid_value: '0.00' });
    await untilPaid(stack.client, stack.token, created.body.id);
    expect(await transactionsOf(created.body.id)).to.deep.equal(['netting posted', 'acquisition posted']);
    expect(await postedBalances(stack.originatorId)).to.include({ [`assignor_price_payable:${created.body.id}`]: '0.00' });
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('voids a refused PIX and posts its retry as a new pending transfer', async () => {
    const created = await createDirect(stack.client, stack.token, directBody({ email: `pix-reject-once+ledger-${randomUUID()}@example.com` }));
    const id = created.body.id;
    await untilStatus(stack.client, stack.token, id, 'CONTRACT_SENT');
    await signAll(stack.client, stack.token, id);
    await untilStatus(stack.client, stack.token, id, 'DISBURSEMENT_FAILED');
    expect(await transactionsOf(id)).to.deep.equal(['acquisition posted', 'payout voided']);
    await retryDisbursement(id);
    await untilStatus(stack.client, stack.token, id, 'PAID', 90_000);
    expect(await transactionsOf(id)).to.deep.equal(['acquisition posted', 'payout voided', 'payout posted']);
    expect(await postedBalances(stack.originatorId)).to.include({ [`assignor_price_payable:${id}`]: '0.00' });
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('voids the pending netting of a denied operation, which bought nothing', async () => {
    const assignor = await buildAssignor(stack.client, stack.token);
    const payable = await buildPayable(stack.client, stack.token, assignor.id, { amount_brl: '600.00' });
    const created = await createDirect(stack.client, stack.token, directBody({
      cnpj: assignor.cnpj, email: assignor.email, receivables: [{ ...(directBody().receivables as object[])[0], net_future_value: '60000.00', requested_net_future_value: '60000.00' }],
    }));
    expect(created.body).to.include({ status: 'WAITING_APPROVAL' });
    await untilStatus(stack.client, stack.token, created.body.id, 'WAITING_APPROVAL');
    const denied = await stack.client.post(`/v1/backoffice/operations/${created.body.id}/deny`, { reason: 'Concentration' }, { token: stack.backoffice });
    expect(denied.status, denied.text).to.equal(200);
    await eventually(async () => expect(await transactionsOf(created.body.id)).to.deep.equal(['netting voided']));
    // The payable is owed again, as it was before the operation netted it.
    expect(await postedBalances(stack.originatorId)).to.include({ [`assignor_payable:${payable.id}`]: '600.00', [`assignor_price_payable:${created.body.id}`]: '0.00' });
  });

  it('reverses the purchase and its netting when an operation whose PIX was refused is cancelled: its accounts back to zero, the payable owed again', async () => {
    const assignor = await buildAssignor(stack.client, stack.token, { email: `pix-reject+ledger-${randomUUID()}@example.com` });
    const payable = await buildPayable(stack.client, stack.token, assignor.id, { amount_brl: '300.00' });
    const created = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor.cnpj, email: assignor.email }));
    const id = created.body.id;
    await untilStatus(stack.client, stack.token, id, 'CONTRACT_SENT');
    await signAll(stack.client, stack.token, id);
    await untilStatus(stack.client, stack.token, id, 'DISBURSEMENT_FAILED');
    const cancelled = await stack.client.post(`/v1/operations/${id}/cancel`, { reason: 'Assignor gave up' }, { token: stack.token });
    expect(cancelled.status, cancelled.text).to.equal(200);
    await eventually(async () => expect(await transactionsOf(id)).to.deep.equal(['netting posted', 'acquisition posted', 'payout voided', 'reversal posted', 'reversal posted']));
    const title = await titleOf(id);
    expect(await postedBalances(stack.originatorId)).to.include({
      [`title_receivable:${title}`]: '0.00', [`unearned_discount:${title}`]: '0.00', [`assignor_price_payable:${id}`]: '0.00',
      [`assignor_payable:${payable.id}`]: '300.00',
    });
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('passes the fault run\'s ledger audit, which names a settled payout whose posting is gone', async () => {
    const auditor = new pg.Client({ connectionString: testConfig().databaseUrl });
    await auditor.connect();
    const misses = async () => {
      const rows: { name: string; ok: boolean }[] = [];
      await auditLedger({ db: auditor, since: started, check: (name, expected, actual) => rows.push({ name, ok: String(expected) === String(actual) }) });
      expect(rows).to.have.length(5);
      return rows.filter((row) => !row.ok).map((row) => row.name);
    };
    try {
      expect(await misses()).to.deep.equal([]);
      await testDb().transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        const payout = trx('ledger_transactions').where({ originator_id: stack.originatorId, kind: 'payout', status: 'posted' }).orderBy('id').first('id');
        await trx('ledger_entries').whereIn('transaction_id', payout).del();
        await trx('ledger_transactions').whereIn('id', payout).del();
      });
      expect(await misses()).to.deep.equal(['PIX payouts the PSP settled not posted exactly once in the ledger']);
    } finally {
      await auditor.end();
    }
  });
});
