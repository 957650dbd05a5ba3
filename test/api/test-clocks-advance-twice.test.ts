import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { overdueAt } from '../../domain/title-rules';
import { addDays, businessDate } from '../../domain/pricing';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { payerPayment, readTitle, simulatePayerPayment } from '../support/titles';
import { advanceClock, readyClock, untilReady } from '../support/test-clocks';

const DAY_MS = 86_400_000;
const GRACE_DAYS = 2;

/** A read with every identifier left out (ids, references to other objects, display numbers): what two alike operations share. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key]) => !/(^|_)ids?$/.test(key) && !['display_number', 'cnpj', 'payer_document', 'name', 'email'].includes(key))
    .map(([key, inner]) => [key, withoutIds(inner)]));
}

/**
 * Issue #26: advancing twice to the same end state gives the same result as one advance. Two
 * operations alike on two clocks at the same time; one clock goes to T in one advance, the other
 * to T1 (past the first two titles' deadlines, before the third's) and then to T.
 */
describe('test clocks: two advances end where one does', function () {
  this.timeout(300_000);
  let client: ApiClient;
  let token: string;
  const start = new Date(Math.ceil((Date.now() + 10 * DAY_MS) / DAY_MS) * DAY_MS + 15 * 3_600_000).toISOString();
  const startDate = businessDate(new Date(start));
  const dueDates = { paid: addDays(startDate, 20), partial: addDays(startDate, 30), unpaid: addDays(startDate, 45) };
  const end = new Date(Date.parse(start) + 60 * DAY_MS).toISOString();

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client, { graceDays: GRACE_DAYS }));
  });

  /** An operation on a fresh clock at `start`, PAID, its first title paid in full and its second in part. */
  async function paidOnClock() {
    const clock = await readyClock(client, token, start);
    const res = await createDirect(client, token, directBody({
      email: `twice+${randomUUID()}@example.com`, test_clock_id: clock.id,
      receivables: Object.entries(dueDates).map(([externalId, dueDate]) => receivable({
        external_id: externalId, due_date: dueDate, net_future_value: '5000.00', requested_net_future_value: '5000.00',
      })),
    }));
    expect(res.status, res.text).to.equal(201);
    const operation = res.body as { id: string; titles: { id: string; external_id: string }[] };
    await untilPaid(client, token, operation.id);
    const titleOf = (externalId: string) => operation.titles.find((t) => t.external_id === externalId)!.id;
    for (const [externalId, amount] of [['paid', '5000.00'], ['partial', '1500.00']]) {
      const paid = await simulatePayerPayment(client, token, titleOf(externalId), payerPayment({ paid_amount_brl: amount, external_id: `${externalId}-boleto` }));
      expect(paid.status, paid.text).to.equal(201);
    }
    return { clock, operation };
  }

  async function advanceTo(clockId: string, frozenTime: string): Promise<void> {
    const res = await advanceClock(client, token, clockId, frozenTime);
    expect(res.status, res.text).to.equal(200);
    expect((await untilReady(client, token, clockId)).frozen_time).to.equal(frozenTime);
  }

  /** Everything the operation's life after PAID produced: its read, its titles, its payables and its events (kind and moment). */
  async function outcome(operation: { id: string; titles: { id: string }[] }) {
    // Its titles are compared one by one below.
    const { titles: _titles, ...read } = (await client.get(`/v1/operations/${operation.id}`, { token })).body;
    // Their timestamps included: creation and the sandbox payments happen at the clock's time too.
    const titles = await Promise.all(operation.titles.map((t) => readTitle(client, token, t.id)));
    const payables = (await Promise.all(operation.titles.map(async (t) => (await client.get(`/v1/assignor-payables?origin_title_id=${t.id}`, { token })).body.items))).flat();
    const events: { event_type: string; occurred_at: Date }[] = await testDb()('events')
      .whereRaw("data->>'operation_id' = ? or data->>'payable_id' = any(?)", [operation.id, payables.map((p: { id: string }) => p.id)]).orderBy('position');
    return {
      status: read.lifecycle_status,
      operation: withoutIds(read),
      titles: withoutIds(titles),
      payables: withoutIds(payables),
      events: events.map((e) => `${e.event_type} at ${e.occurred_at.toISOString()}`),
    };
  }

  it('leaves the operation, its titles, payables and events as one advance does (ids aside)', async () => {
    const once = await paidOnClock();
    const twice = await paidOnClock();
    // Past the paid and the partly paid titles' deadlines, a day before the unpaid one's.
    const between = new Date(Date.parse(overdueAt(dueDates.unpaid, GRACE_DAYS)) - DAY_MS).toISOString();
    expect(between > overdueAt(dueDates.partial, GRACE_DAYS)).to.equal(true);

    await advanceTo(once.clock.id, end);
    await advanceTo(twice.clock.id, between);
    expect((await readTitle(client, token, twice.operation.titles.find((t) => t.external_id === 'partial')!.id)).status).to.equal('OVERDUE');
    expect((await readTitle(client, token, twice.operation.titles.find((t) => t.external_id === 'unpaid')!.id)).status).to.equal('WAITING_PAYMENT');
    await advanceTo(twice.clock.id, end);

    const [inOne, inTwo] = [await outcome(once.operation), await outcome(twice.operation)];
    expect(inOne.status).to.equal('SETTLED');
    expect(inOne.events).to.include.members([
      `title.overdue at ${overdueAt(dueDates.partial, GRACE_DAYS)}`, `title.overdue at ${overdueAt(dueDates.unpaid, GRACE_DAYS)}`,
      `operation.settled at ${overdueAt(dueDates.unpaid, GRACE_DAYS)}`,
    ]);
    expect(inTwo).to.deep.equal(inOne);
  });
});
