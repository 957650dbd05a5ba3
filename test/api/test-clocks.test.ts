import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { overdueAt } from '../../domain/title-rules';
import { addDays, businessDate } from '../../domain/pricing';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilPaid, untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { payerPayment, readTitle, simulatePayerPayment } from '../support/titles';
import { readPayable } from '../support/payables';
import { recordHistory } from '../support/histories';
import { advanceClock, readyClock, untilReady } from '../support/test-clocks';
import { anticipationBody, requestAnticipation } from '../support/stock';

const DAY_MS = 86_400_000;
const GRACE_DAYS = 2;

/**
 * Issue #26's story: an operation on a test clock lives its months after disbursement in one
 * advance. The clock starts ten days ahead of real time, so a timestamp taken from the real clock
 * could never pass for the test clock's.
 */
describe('test clocks: the months after disbursement in minutes', function () {
  this.timeout(240_000);
  let client: ApiClient;
  let token: string;
  const start = new Date(Math.ceil((Date.now() + 10 * DAY_MS) / DAY_MS) * DAY_MS + 15 * 3_600_000).toISOString();
  const startDate = businessDate(new Date(start));
  let clock: { id: string; frozen_time: string };
  let body: Record<string, unknown>;
  let operation: { id: string; titles: { id: string; external_id: string; due_date: string }[] };
  let target: string;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client, { graceDays: GRACE_DAYS }));
    clock = await readyClock(client, token, start);
  });

  it('prices and creates at the clock\'s time: created_at is the clock\'s, the read shows test_clock_id', async () => {
    body = directBody({
      email: `clock+${randomUUID()}@example.com`, test_clock_id: clock.id,
      receivables: [
        receivable({ external_id: 'paid', due_date: addDays(startDate, 30), net_future_value: '10000.00', requested_net_future_value: '10000.00' }),
        receivable({ external_id: 'unpaid', due_date: addDays(startDate, 45), net_future_value: '4000.00', requested_net_future_value: '4000.00' }),
      ],
    });
    const simulate = (extra: Record<string, unknown>) => client.post('/v1/simulate', { receivables: body.receivables, ...extra }, { token });
    const [onClock, inRealTime] = [(await simulate({ test_clock_id: clock.id })).body, (await simulate({})).body];
    const days = (priced: { receivables: { external_id: string; qty_days_advanced: number }[] }) => priced.receivables.map((r) => r.qty_days_advanced);
    expect(days(inRealTime)[0] - days(onClock)[0]).to.be.at.least(9);
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.display_number).to.match(new RegExp(`^OP-${startDate.replaceAll('-', '')}-`));
    expect(res.body.titles.map((t: { qty_days_advanced: number }) => t.qty_days_advanced)).to.deep.equal(days(onClock));
    operation = res.body;
    const read = await client.get(`/v1/operations/${operation.id}`, { token });
    expect(read.body).to.include({ test_clock_id: clock.id, created_at: start });
    // Its titles too are created at the clock's time, not the real moment of the request.
    expect(read.body.titles.map((t: { created_at: string; updated_at: string }) => [t.created_at, t.updated_at])).to.deep.equal([[start, start], [start, start]]);
  });

  it('reaches PAID through the signing page in real time while the clock stands; a title is paid in full in the sandbox', async () => {
    await untilPaid(client, token, operation.id);
    const paid = operation.titles.find((t) => t.external_id === 'paid')!;
    const res = await simulatePayerPayment(client, token, paid.id, payerPayment({ paid_amount_brl: '10000.00' }));
    expect(res.status, res.text).to.equal(201);
    // Paid while the clock stands at its start: the title moved at the clock's time.
    expect(await readTitle(client, token, paid.id)).to.include({ status: 'PAID', updated_at: start });
  });

  it('advances past every due date plus grace: ready within a minute, the other title OVERDUE with a payable dated by the clock, the operation SETTLED', async () => {
    target = new Date(Date.parse(start) + 60 * DAY_MS).toISOString();
    const res = await advanceClock(client, token, clock.id, target);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ id: clock.id, status: 'advancing', frozen_time: target });
    // The operation is still applying its deadlines: another advance must wait.
    const meanwhile = await advanceClock(client, token, clock.id, new Date(Date.parse(target) + DAY_MS).toISOString());
    expect([meanwhile.status, meanwhile.body]).to.deep.equal([409, { detail: 'test_clock_advancing' }]);
    expect((await untilReady(client, token, clock.id)).frozen_time).to.equal(target);
    const ready = (await client.get(`/v1/events?object_id=${clock.id}`, { token })).body.items;
    expect(ready.map((e: { event_type: string; data: { frozen_time: string } }) => [e.event_type, e.data.frozen_time])).to.deep.equal([['test_clock.ready', target]]);

    const unpaid = operation.titles.find((t) => t.external_id === 'unpaid')!;
    expect((await readTitle(client, token, operation.titles.find((t) => t.external_id === 'paid')!.id)).status).to.equal('PAID');
    expect((await readTitle(client, token, unpaid.id)).status).to.equal('OVERDUE');
    const deadline = overdueAt(unpaid.due_date, GRACE_DAYS);
    const payables = (await client.get(`/v1/assignor-payables?origin_title_id=${unpaid.id}`, { token })).body.items;
    expect(payables).to.have.length(1);
    expect(payables[0]).to.include({ origin: 'TITLE_OVERDUE', amount_brl: '4000.00', status: 'OPEN', due_date: businessDate(new Date(deadline)), created_at: deadline });
    expect((await client.get(`/v1/operations/${operation.id}`, { token })).body.lifecycle_status).to.equal('SETTLED');
    await recordHistory('test-clock', operation.id);

    const events: { event_type: string; occurred_at: Date }[] = await testDb()('events')
      .whereRaw("data->>'operation_id' = ? or data->>'payable_id' = ?", [operation.id, payables[0].id]).orderBy('position');
    expect(events.map((e) => e.event_type)).to.include.members(['operation.created', 'operation.paid', 'title.paid', 'title.overdue', 'payable.opened', 'operation.settled']);
    for (const event of events) {
      const at = event.occurred_at.toISOString();
      expect(at >= start && at <= target, `${event.event_type} at ${at}`).to.equal(true);
    }
    const at = (type: string) => events.find((e) => e.event_type === type)!.occurred_at.toISOString();
    expect([at('operation.paid'), at('title.paid')]).to.deep.equal([start, start]);
    expect([at('title.overdue'), at('payable.opened'), at('operation.settled')]).to.deep.equal([deadline, deadline, deadline]);
  });

  it('nets that payable into a second operation on the same clock, at the clock\'s time', async () => {
    const later = businessDate(new Date(target));
    const payable = (await client.get(`/v1/assignor-payables?status=OPEN&assignor_id=${(await client.get(`/v1/operations/${operation.id}`, { token })).body.assignor_id}`, { token })).body.items[0];
    const res = await createDirect(client, token, { ...body, receivables: [receivable({ due_date: addDays(later, 30) })] });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ other_debt_discounts: '4000.00' });
    const netted = await readPayable(client, token, payable.id);
    expect(netted).to.include({ status: 'PAID', remaining: '0.00' });
    expect(netted.payments[0]).to.include({ source: 'OPERATION_NETTING', operation_id: res.body.id });
    const second = await untilStatus(client, token, res.body.id, 'CONTRACT_SENT');
    expect(second).to.include({ test_clock_id: clock.id, created_at: target });
  });
});

describe('test clocks: the stock rows a creation writes', function () {
  this.timeout(60_000);

  it('a partial anticipation\'s remainder is created at the clock\'s time, and a stock operation anticipates it at the clock\'s time', async () => {
    const client = new ApiClient((await sharedApi()).url);
    const { token } = await buildOperationsIntegrator(client);
    const start = new Date(Math.ceil((Date.now() + 10 * DAY_MS) / DAY_MS) * DAY_MS + 15 * 3_600_000).toISOString();
    const clock = await readyClock(client, token, start);
    const partial = receivable({ external_id: 'PART', due_date: addDays(businessDate(new Date(start)), 30), net_future_value: '10000.00', requested_net_future_value: '6000.00' });
    const direct = await createDirect(client, token, directBody({ test_clock_id: clock.id, receivables: [partial] }));
    expect(direct.status, direct.text).to.equal(201);
    const [{ id }] = await testDb()('stock_items').where({ source_operation_id: direct.body.id }).select('id');
    const remainder = (await client.get(`/v1/stock/${id}`, { token })).body;
    expect(remainder).to.include({ status: 'IN_STOCK', net_future_value: '4000.00', created_at: start, updated_at: start });

    // A remainder is never pre-authorized; the assignor's consent is given in real time, off the clock.
    expect((await client.patch(`/v1/stock/${id}`, { pre_authorized: true }, { token })).status).to.equal(200);
    const stock = await requestAnticipation(client, token, anticipationBody([id], '4000.00', { test_clock_id: clock.id }));
    expect(stock.status, stock.text).to.equal(201);
    expect(stock.body).to.include({ test_clock_id: clock.id, created_at: start });
    expect((await client.get(`/v1/stock/${id}`, { token })).body).to.include({ status: 'ANTICIPATED', operation_id: stock.body.id, created_at: start, updated_at: start });
  });
});
