import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Money } from '../../domain/money';
import { addDays, businessDate, startOfBusinessDay } from '../../domain/pricing';
import { ledgerReconciliationScheduleId } from '../../domain/workflow-ids';
import { transaction } from '../../domain/ledger/transaction';
import { unidentifiedReceipt } from '../../domain/ledger/collection-postings';
import { LedgerPostingsRepository } from '../../db/repositories/ledger-postings';
import { anotherApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { collectOnPix } from '../support/pix-collection';
import { listEvents } from '../support/events';
import { temporal } from '../support/temporal';
import { expectEvenTrialBalance } from '../support/ledger';

const DAY_MS = 86_400_000;

describe('reconciling the PSP accounts against their statements, and the close', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  const today = () => businessDate(new Date());
  const yesterday = () => addDays(today(), -1);
  const kindsOf = async (operationId: string) =>
    (await testDb()('ledger_transactions').where({ operation_id: operationId }).orderBy('id').select('kind', 'status')).map((row) => `${row.kind} ${row.status}`);

  async function reconcile(date: string) {
    const res = await stack.client.post('/v1/backoffice/ledger/reconcile', { business_date: date }, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
    return res.body as { reconciliations: { id: string; psp: string; status: string; mismatch_count: number; date_closed: boolean; psp_lines: number; ledger_lines: number }[]; mismatch_count: number; date_closed: boolean };
  }

  async function mismatchesOf(run: { id: string }) {
    const res = await stack.client.get(`/v1/backoffice/ledger/reconciliations/${run.id}`, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
    return res.body.mismatches as { kind: string; reference: string | null; originator_id: string | null; ledger_amount: string | null; psp_amount: string | null }[];
  }

  const runOf = (outcome: Awaited<ReturnType<typeof reconcile>>, psp: string) => outcome.reconciliations.find((run) => run.psp === psp)!;
  let operationId: string;

  it('runs every day by a Temporal Schedule the worker creates: yesterday, with nothing on either side, reconciles clean and closes', async () => {
    const handle = (await temporal()).schedule.getHandle(ledgerReconciliationScheduleId(testConfig().temporal.taskQueue));
    const described = await handle.describe();
    expect(described.spec.intervals?.[0]).to.include({ every: DAY_MS });
    expect(described.action).to.include({ workflowType: 'ledgerReconciliation' });
    await handle.trigger();
    const runs = await eventually(async () => {
      const res = await stack.client.get(`/v1/backoffice/ledger/reconciliations?business_date=${yesterday()}`, { token: stack.backoffice });
      expect(res.body.items).to.have.length(2);
      return res.body.items as { psp: string; status: string; requested_by: string; date_closed: boolean }[];
    }, 60_000);
    expect(runs.map((run) => [run.psp, run.status, run.requested_by, run.date_closed]).sort()).to.deep.equal([
      ['collection', 'clean', 'schedule', true], ['payout', 'clean', 'schedule', true],
    ]);
  });

  it('books a posting dated in a closed date at the start of the open date', async () => {
    const key = `test:${randomUUID()}`;
    const amount = Money.of('12.34');
    await testDb().transaction((trx) => new LedgerPostingsRepository(trx, stack.originatorId).post(transaction(
      { kind: 'unidentified_receipt', idempotencyKey: key, status: 'posted', effectiveAt: new Date(startOfBusinessDay(yesterday()).getTime() + 12 * 3_600_000), references: {} },
      [{ account: { kind: 'bank_cash' }, amount }], [{ account: { kind: 'unidentified_receipts' }, amount }],
    )));
    const row = await testDb()('ledger_transactions').where({ idempotency_key: key }).first('effective_at');
    expect(new Date(row.effective_at).toISOString()).to.equal(startOfBusinessDay(today()).toISOString());
  });

  it('finds nothing on a clean day: a payout, a PIX received and its refund, each on both sides', async () => {
    await collectOnPix(stack.originatorId);
    const created = await createDirect(stack.client, stack.token, directBody());
    expect(created.status, created.text).to.equal(201);
    operationId = created.body.id;
    await untilPaid(stack.client, stack.token, operationId);
    const titleId = created.body.titles[0].id;
    await eventually(async () => {
      const res = await stack.client.post(`/v1/sandbox/titles/${titleId}/pix`, { amount: '10300.00' }, { token: stack.token });
      expect(res.status, res.text).to.equal(202);
    });
    await eventually(async () => expect(await testDb()('ledger_transactions').where({ title_id: titleId, kind: 'refund', status: 'posted' })).to.have.length(1));
    expect(await kindsOf(operationId)).to.include.members(['acquisition posted', 'payout posted']);

    const outcome = await reconcile(today());
    expect(outcome).to.include({ mismatch_count: 0, date_closed: false });
    // The payout; the PIX received and its refund: matched line by line, not merely two empty statements
    // (at least these: other files' operations may share the sandbox PSPs and this database today).
    expect(outcome.reconciliations.map((run) => [run.psp, run.status]).sort()).to.deep.equal([['collection', 'clean'], ['payout', 'clean']]);
    for (const run of outcome.reconciliations) expect(run.ledger_lines, run.psp).to.equal(run.psp_lines);
    expect(runOf(outcome, 'payout').psp_lines).to.be.at.least(1);
    expect(runOf(outcome, 'collection').psp_lines).to.be.at.least(2);
    const audited = await testDb()('audit_events').where({ action: 'ledger.reconcile' }).orderBy('seq', 'desc').first();
    expect(audited.request).to.deep.equal({ business_date: today() });
    expect(audited.after).to.deep.include({ mismatches: 0, date_closed: false });
    expect([...audited.after.reconciliation_ids].sort()).to.deep.equal(outcome.reconciliations.map((run) => run.id).sort());
  });

  it('finds the PSP line a posting removed by SQL leaves the ledger without, and tells the originator', async () => {
    const payout = await testDb()('ledger_transactions').where({ operation_id: operationId, kind: 'payout' }).first('id');
    const disbursement = await testDb()('disbursements').where({ operation_id: operationId, status: 'SETTLED' }).first('idempotency_key', 'settled_amount');
    const removed = { transaction: await testDb()('ledger_transactions').where({ id: payout.id }).first(), entries: await testDb()('ledger_entries').where({ transaction_id: payout.id }) };
    await testDb().transaction(async (trx) => {
      await trx.raw('alter table ledger_entries disable trigger ledger_entries_append_only');
      await trx.raw('alter table ledger_transactions disable trigger ledger_transactions_no_delete');
      await trx('ledger_entries').where({ transaction_id: payout.id }).delete();
      await trx('ledger_transactions').where({ id: payout.id }).delete();
      await trx.raw('alter table ledger_entries enable trigger ledger_entries_append_only');
      await trx.raw('alter table ledger_transactions enable trigger ledger_transactions_no_delete');
    });

    const run = runOf(await reconcile(today()), 'payout');
    expect(run.status).to.equal('mismatched');
    const mismatches = await mismatchesOf(run);
    expect(mismatches.map((m) => m.kind).sort()).to.deep.equal(['closing_balance_differs', 'missing_in_ledger']);
    expect(mismatches.find((m) => m.kind === 'missing_in_ledger')).to.include({
      reference: disbursement.idempotency_key, originator_id: stack.originatorId, ledger_amount: null, psp_amount: disbursement.settled_amount,
    });
    const { items } = await listEvents(stack.client, stack.token, 'type=ledger.reconciliation_mismatch');
    expect(items.map((event) => [event.data.kind, event.data.reference])).to.deep.include(['missing_in_ledger', disbursement.idempotency_key]);
    // Put the posting back: a run of chosen files shares this database, and other files audit every payout's posting.
    await testDb().transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica'); // as it was, past the append-only triggers
      await trx('ledger_transactions').insert(removed.transaction);
      await trx('ledger_entries').insert(removed.entries);
    });
  });

  it('finds a ledger line the PSP lacks; an approver accepts it, and the run counts as settled', async () => {
    const endToEndId = `E99999008${Date.now()}NOTATPSP`;
    await testDb().transaction((trx) => new LedgerPostingsRepository(trx, stack.originatorId)
      .post(unidentifiedReceipt({ receiptId: randomUUID(), amount: Money.of('45.67'), endToEndId }, new Date())));
    await expectEvenTrialBalance(stack.originatorId);

    const run = runOf(await reconcile(today()), 'collection');
    expect(run.status).to.equal('mismatched');
    const mismatches = await mismatchesOf(run);
    expect(mismatches.map((m) => m.kind).sort()).to.deep.equal(['closing_balance_differs', 'missing_at_psp']);
    expect(mismatches.find((m) => m.kind === 'missing_at_psp')).to.include({ reference: endToEndId, originator_id: stack.originatorId, ledger_amount: '45.67', psp_amount: null });

    const accepted = await stack.client.post(`/v1/backoffice/ledger/reconciliations/${run.id}/accept`, { reason: 'Test receipt booked on purpose' }, { token: stack.backoffice });
    expect(accepted.status, accepted.text).to.equal(200);
    expect(accepted.body.reconciliation).to.include({ status: 'accepted', accepted_reason: 'Test receipt booked on purpose', date_closed: false });
    const again = await stack.client.post(`/v1/backoffice/ledger/reconciliations/${run.id}/accept`, { reason: 'twice' }, { token: stack.backoffice });
    expect(again.status, again.text).to.equal(409);
    expect(again.body.detail).to.include({ code: 'ledger_reconciliation_not_mismatched' });
  });

  it('answers 503 when a PSP cannot be read, and stores nothing', async () => {
    const unreachable = await anotherApi({ PIX_URL: 'http://127.0.0.1:9/pix' });
    const before = await testDb()('ledger_reconciliations').count<{ count: string }[]>({ count: '*' });
    const res = await new ApiClient(unreachable.url).post('/v1/backoffice/ledger/reconcile', { business_date: today() }, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(503);
    expect(res.body.detail).to.equal('pix_unavailable');
    expect(await testDb()('ledger_reconciliations').count<{ count: string }[]>({ count: '*' })).to.deep.equal(before);
  });
});
