import { expect } from 'chai';
import { Money } from '../../domain/money';
import { connectTemporal, TemporalHandle } from '../../api/temporal/client';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { operationWorkflow } from '../../workflows/operation/workflow';
import { stateQuery } from '../../workflows/operation/messages';
import { sharedApi, sharedWorker, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { recordHistory } from '../support/histories';
import { closeTemporal, listedWorkflows } from '../support/temporal';
import { NEXT_TITLE_DEADLINE, OPEN_TITLES } from '../../domain/search-attributes';
import { assignorExposure, operationWithTitles, payerPayment, readTitle, simulatePayerPayment, titlePaidEvents } from '../support/titles';

/**
 * Titles as their operation's workflow tracks them from PAID: each operation is signed through
 * to PAID first. Payments go through the public sandbox route. A policy of 0 grace days makes a
 * title due yesterday overdue as soon as it is tracked.
 */
describe('title tracking by the operation workflow', function () {
  this.timeout(120_000);
  let client: ApiClient;
  let token: string;
  let temporal: TemporalHandle;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client, { graceDays: 0, autoApproveLimitBrl: Money.of('1000000.00') }));
    temporal = connectTemporal(testConfig().temporal, testConfig().payloadKeys);
  });
  after(() => temporal.connection.close());
  after(closeTemporal);

  /** Signs the operation through to PAID: from then on its workflow tracks the titles. */
  const track = async (operationId: string) => {
    await untilStatus(client, token, operationId, 'CONTRACT_SENT');
    await signAll(client, token, operationId);
    await untilStatus(client, token, operationId, 'PAID', 90_000);
    return temporal.client.workflow.getHandle<typeof operationWorkflow>(operationWorkflowId(operationId));
  };
  const titleIn = <T extends { titleId: string }>(state: { titles: T[] }, titleId: string) => state.titles.find((t) => t.titleId === titleId);

  it('refuses payer payments before the title is tracked: title_not_payable_yet', async () => {
    const { current, operation } = await operationWithTitles(client, token, { current: '10000.00' });
    await untilStatus(client, token, operation.id, 'CONTRACT_SENT');
    const res = await simulatePayerPayment(client, token, current, payerPayment());
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.include({ code: 'title_not_payable_yet' });
  });

  it('moves a title paid in two parts WAITING_PAYMENT → PARTIALLY_PAID → PAID, emits one title.paid and releases its exposure', async () => {
    const { current, body, operation } = await operationWithTitles(client, token, { current: '10000.00' });
    const workflow = await track(operation.id);
    expect(await assignorExposure(client, token, body)).to.equal('10000.00');

    const first = payerPayment({ paid_amount_brl: '4000.00', paid_at: '2026-11-20T13:00:00.000Z' });
    const a = await simulatePayerPayment(client, token, current, first);
    expect(a.status, a.text).to.equal(201);
    expect(a.body).to.include({ title_id: current, title_status: 'PARTIALLY_PAID', remaining: '6000.00', paid_amount_brl: '4000.00', paid_at: first.paid_at, idempotent_replay: false });
    expect(await readTitle(client, token, current)).to.include({ status: 'PARTIALLY_PAID', outstanding_balance: '6000.00', paid_amount: '4000.00' });
    expect(await assignorExposure(client, token, body)).to.equal('6000.00');
    expect((await simulatePayerPayment(client, token, current, first)).body).to.deep.equal({ ...a.body, idempotent_replay: true });

    const over = await simulatePayerPayment(client, token, current, payerPayment({ paid_amount_brl: '6000.01' }));
    expect(over.status).to.equal(422);
    expect(over.body.detail).to.include({ code: 'payment_exceeds_outstanding_balance', outstanding_balance: '6000.00', paid_amount_brl: '6000.01' });

    const b = await simulatePayerPayment(client, token, current, payerPayment({ paid_amount_brl: 6000 }));
    expect(b.body).to.include({ title_status: 'PAID', remaining: '0.00' });
    expect(titleIn(await workflow.result(), current)).to.include({ status: 'PAID', outstandingBalance: '0.00', paidAmount: '10000.00' });
    expect(await readTitle(client, token, current)).to.include({ status: 'PAID', outstanding_balance: '0.00', paid_amount: '10000.00' });
    expect(await assignorExposure(client, token, body)).to.equal('0.00');

    const events = await titlePaidEvents(current);
    expect(events).to.have.length(1);
    expect(events[0].data).to.include({ title_id: current, external_id: 'current', paid_amount_brl: '10000.00' });
    const late = await simulatePayerPayment(client, token, current, payerPayment());
    expect(late.status).to.equal(409);
    expect(late.body.detail).to.include({ code: 'title_already_paid' });
    expect((await simulatePayerPayment(client, token, current, first)).body).to.deep.equal({ ...a.body, idempotent_replay: true });
    await recordHistory('settlement', operation.id);
  });

  it('keeps OpenTitles and NextTitleDeadline, so one query finds PAID operations by their next title deadline', async () => {
    const { current, operation } = await operationWithTitles(client, token, { current: '10000.00' });
    const workflow = await track(operation.id);
    const deadline = titleIn(await workflow.query(stateQuery), current)!.overdueAt;
    const attributes = await eventually(async () => {
      const sa = (await workflow.describe()).typedSearchAttributes;
      expect(sa.get(OPEN_TITLES)).to.equal(1);
      return sa;
    });
    expect(attributes.get(NEXT_TITLE_DEADLINE)!.toISOString()).to.equal(deadline);
    const soon = new Date(Date.parse(deadline) + 1000).toISOString();
    const query = `ExecutionStatus = "Running" AND LifecycleStatus = "PAID" AND OpenTitles > 0 AND NextTitleDeadline < "${soon}" AND DisplayNumber = "${operation.display_number}"`;
    expect(await listedWorkflows(query, 1)).to.deep.equal([operationWorkflowId(operation.id)]);

    expect((await simulatePayerPayment(client, token, current, payerPayment({ paid_amount_brl: '10000.00' }))).status).to.equal(201);
    await workflow.result();
    const closed = (await workflow.describe()).typedSearchAttributes;
    expect(closed.get(OPEN_TITLES)).to.equal(0);
    expect(closed.get(NEXT_TITLE_DEADLINE)).to.equal(undefined);
  });

  it('applies concurrent payments one at a time, on the balance the previous one left', async () => {
    const { current, operation } = await operationWithTitles(client, token, { current: '10000.00' });
    await track(operation.id);
    const answers = await Promise.all([1, 2].map(() => simulatePayerPayment(client, token, current, payerPayment({ paid_amount_brl: '6000.00' }))));
    expect(answers.map((r) => r.status).sort()).to.deep.equal([201, 422]);
    expect(await readTitle(client, token, current)).to.include({ outstanding_balance: '4000.00' });
  });

  it('turns a title unpaid at due date + grace days OVERDUE, opens a payable for its balance and locks it', async () => {
    const { overdue, body, operation } = await operationWithTitles(client, token, { current: '60000.00', overdue: '5000.00' });
    const workflow = await track(operation.id);
    expect(await eventually(async () => {
      const title = titleIn(await workflow.query(stateQuery), overdue!);
      expect(title).to.include({ status: 'OVERDUE', outstandingBalance: '5000.00' });
      return title;
    })).to.have.property('payableId').that.is.a('string');
    expect(await readTitle(client, token, overdue!)).to.include({ status: 'OVERDUE', outstanding_balance: '5000.00' });
    const payables = await client.get(`/v1/assignor-payables?origin_title_id=${overdue}`, { token });
    expect(payables.body.total).to.equal(1);
    const [payable] = payables.body.items;
    expect(payable).to.include({ origin: 'TITLE_OVERDUE', amount_brl: '5000.00', remaining: '5000.00', status: 'OPEN' });
    expect(titleIn(await workflow.query(stateQuery), overdue!)!.payableId).to.equal(payable.id);

    const locked = await simulatePayerPayment(client, token, overdue!, payerPayment());
    expect(locked.status).to.equal(409);
    expect(locked.body).to.deep.equal({ detail: 'title_balance_locked' });

    // The locked balance follows the assignor's repurchase: exposure falls as the payable is paid.
    const paid = await client.post(`/v1/assignor-payables/${payable.id}/payments`, { source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '2000.00' }, { token });
    expect(paid.status, paid.text).to.equal(201);
    expect(await readTitle(client, token, overdue!)).to.include({ status: 'OVERDUE', outstanding_balance: '3000.00' });
    expect(await assignorExposure(client, token, body)).to.equal('63000.00');
    await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'Lost' }, { token });
    expect(await eventually(async () => readTitle(client, token, overdue!))).to.include({ outstanding_balance: '0.00' });
    await recordHistory('overdue', operation.id);
  });
});
