import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { overdueAt } from '../../domain/title-rules';
import { addDays, businessDate } from '../../domain/pricing';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilPaid, untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { payerPayment, simulatePayerPayment } from '../support/titles';
import { collectOnPix } from '../support/pix-collection';
import { advanceClock, readyClock, untilReady } from '../support/test-clocks';
import { eventually } from '../support/webhooks';
import { listEvents } from '../support/events';

const DAY_MS = 86_400_000;
const GRACE_DAYS = 2;

type Listed = { event_id: string; event_type: string; occurred_at: string; object_id: string; data: Record<string, unknown> };

/** Every timestamp inside an event's data (any `*_at` field, at any depth), with its path. */
function timestampsOf(data: unknown, path = 'data'): [string, string][] {
  if (data === null || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]): [string, string][] => (key.endsWith('_at') && typeof value === 'string'
    ? [[`${path}.${key}`, value]]
    : timestampsOf(value, `${path}.${key}`)));
}

/**
 * An operation's whole story in one list: `GET /v1/events?operation_id=` returns the events of
 * the operation, its titles, their PIX charges and the payable an overdue title opened, newest
 * first; on a test clock every one of them, and every timestamp they carry, is on the clock's time.
 * The clock starts ten days ahead of real time, so no real moment can pass for one of its own.
 */
describe('an operation\'s whole story, on a test clock', function () {
  this.timeout(240_000);
  let client: ApiClient;
  let token: string;
  const start = new Date(Math.ceil((Date.now() + 10 * DAY_MS) / DAY_MS) * DAY_MS + 15 * 3_600_000).toISOString();
  const startDate = businessDate(new Date(start));
  const target = new Date(Date.parse(start) + 60 * DAY_MS).toISOString();
  let operationId: string;
  let titles: Record<string, { id: string; due_date: string }>;
  let story: Listed[];
  let clockId: string;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client, { graceDays: GRACE_DAYS });
    token = integrator.token;
    await collectOnPix(integrator.originatorId);
    const clock = await readyClock(client, token, start);
    clockId = clock.id;
    const res = await createDirect(client, token, directBody({
      email: `story+${randomUUID()}@example.com`, test_clock_id: clock.id,
      receivables: [
        receivable({ external_id: 'paid', due_date: addDays(startDate, 30), net_future_value: '10000.00', requested_net_future_value: '10000.00' }),
        receivable({ external_id: 'unpaid', due_date: addDays(startDate, 45), net_future_value: '4000.00', requested_net_future_value: '4000.00' }),
      ],
    }));
    expect(res.status, res.text).to.equal(201);
    operationId = res.body.id;
    titles = Object.fromEntries((res.body.titles as { id: string; external_id: string; due_date: string }[]).map((t) => [t.external_id, t]));
    await untilPaid(client, token, operationId);
    for (const amount of ['4000.00', '6000.00']) {
      const paid = await simulatePayerPayment(client, token, titles.paid.id, payerPayment({ paid_amount_brl: amount }));
      expect(paid.status, paid.text).to.equal(201);
    }
    expect((await advanceClock(client, token, clock.id, target)).status).to.equal(200);
    await untilReady(client, token, clock.id);
    await untilStatus(client, token, operationId, 'SETTLED');
    // The charge of the overdue title closes just after the overdue move.
    story = await eventually(async () => {
      const { items, has_more: more } = await listEvents(client, token, `operation_id=${operationId}&limit=100`);
      expect(more).to.equal(false);
      expect(items.map((e) => e.event_type)).to.include('pix_charge.expired');
      return items as Listed[];
    }, 30_000);
  });

  it('lists the operation\'s, its titles\', their charges\' and the payable\'s events, newest first', async () => {
    const kinds = story.map((e) => e.event_type);
    expect(kinds).to.include.members([
      'operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid', 'title.partially_paid', 'title.paid',
      'title.overdue', 'payable.opened', 'pix_charge.expired', 'operation.settled',
    ]);
    const payables = (await client.get(`/v1/assignor-payables?origin_title_id=${titles.unpaid.id}`, { token })).body.items;
    expect(payables).to.have.length(1);
    const objects = [operationId, titles.paid.id, titles.unpaid.id, payables[0].id];
    expect(new Set(story.map((e) => e.object_id))).to.deep.equal(new Set(objects));
    // The same events as each object's own list, nothing more.
    const byObject = [];
    for (const id of objects) byObject.push(...(await listEvents(client, token, `object_id=${id}&limit=100`)).items.map((e) => e.event_id));
    expect(story.map((e) => e.event_id).sort()).to.deep.equal(byObject.sort());
    const instants = story.map((e) => Date.parse(e.occurred_at));
    expect(instants).to.deep.equal([...instants].sort((a, b) => b - a));
    // Another originator's token sees none of it.
    const stranger = await buildOperationsIntegrator(client);
    expect((await listEvents(client, stranger.token, `operation_id=${operationId}`)).items).to.deep.equal([]);
  });

  it('puts every event of every kind, and every timestamp in its data, on the clock\'s time', () => {
    const deadline = overdueAt(titles.unpaid.due_date, GRACE_DAYS);
    for (const event of story) {
      for (const [path, at] of [['occurred_at', event.occurred_at], ...timestampsOf(event.data)]) {
        expect(at >= start && at <= target, `${event.event_type} ${path} ${at} between ${start} and ${target}`).to.equal(true);
      }
    }
    const at = (type: string) => story.find((e) => e.event_type === type)!;
    expect([at('operation.paid').occurred_at, at('title.paid').occurred_at, at('title.paid').data.paid_at]).to.deep.equal([start, start, start]);
    for (const type of ['title.overdue', 'payable.opened', 'pix_charge.expired', 'operation.settled']) expect(at(type).occurred_at, type).to.equal(deadline);
    expect(at('pix_charge.expired').data.expired_at).to.equal(deadline);
  });

  it('puts the clock\'s own test_clock.ready at the time it reached', async () => {
    const { items } = await listEvents(client, token, `object_id=${clockId}`);
    expect(items.map((e) => [e.event_type, e.occurred_at, e.data.frozen_time])).to.deep.equal([['test_clock.ready', target, target]]);
  });
});
