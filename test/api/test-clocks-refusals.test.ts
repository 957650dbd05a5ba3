import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { anotherApi, sharedApi, sharedWorker, testDb } from '../support/stack';
import { productionEnv } from '../support/config';
import { ApiClient } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';
import { newIdempotencyKey } from '../support/idempotency';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from '../support/simulate';
import { anticipationBody, requestAnticipation, simulateAnticipation, stocked } from '../support/stock';
import { advanceClock, createClock, readyClock, untilReady } from '../support/test-clocks';

const DAY_MS = 86_400_000;
const notFound = (id: string) => ({ detail: { code: 'test_clock_not_found', message: `No test clock ${id} for this originator in this environment`, test_clock_id: id } });

describe('test clocks: refusals', function () {
  this.timeout(120_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  const start = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  const later = (days: number) => new Date(Date.parse(start) + days * DAY_MS).toISOString();

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token, originatorId } = await buildOperationsIntegrator(client));
  });

  it('refuses an advance that is not forward with 422 test_clock_time_not_forward, the clock unchanged', async () => {
    const clock = await readyClock(client, token, start);
    for (const to of [start, later(-1)]) {
      const res = await advanceClock(client, token, clock.id, to);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail).to.include({ code: 'test_clock_time_not_forward' });
    }
    expect((await client.get(`/v1/test-clocks/${clock.id}`, { token })).body).to.include({ frozen_time: start, status: 'ready' });
  });

  it('refuses more than two years in one advance with 422 test_clock_advance_too_far; exactly 730 days is allowed', async () => {
    const clock = await readyClock(client, token, start);
    const res = await advanceClock(client, token, clock.id, new Date(Date.parse(later(730)) + 1000).toISOString());
    expect(res.status, res.text).to.equal(422);
    expect(res.body.detail).to.include({ code: 'test_clock_advance_too_far' });
    expect((await advanceClock(client, token, clock.id, later(730))).status).to.equal(200);
    expect((await untilReady(client, token, clock.id)).frozen_time).to.equal(later(730));
  });

  it('refuses an unknown test_clock_id with 422 test_clock_not_found on the four routes, writing nothing', async () => {
    const unknown = randomUUID();
    const operations = () => testDb()('operations').where({ originator_id: originatorId }).count<{ count: string }[]>({ count: '*' });
    const before = (await operations())[0].count;
    const [item] = await stocked(client, token);
    const answers = [
      await client.post('/v1/simulate', { receivables: [receivable()], test_clock_id: unknown }, { token }),
      await createDirect(client, token, directBody({ test_clock_id: unknown })),
      await simulateAnticipation(client, token, anticipationBody([item.id], '10000.00', { test_clock_id: unknown })),
      await requestAnticipation(client, token, anticipationBody([item.id], '10000.00', { test_clock_id: unknown })),
    ];
    for (const res of answers) {
      expect(res.status, res.text).to.equal(422);
      expect(res.body).to.deep.equal(notFound(unknown));
    }
    expect((await operations())[0].count).to.equal(before);
    expect((await client.get(`/v1/stock/${item.id}`, { token })).body.status).to.equal('IN_STOCK');
  });

  it('does not let another originator use, read or advance a clock', async () => {
    const clock = await readyClock(client, token, start);
    const other = await buildOperationsIntegrator(client);
    const res = await createDirect(client, other.token, directBody({ test_clock_id: clock.id }));
    expect(res.status, res.text).to.equal(422);
    expect(res.body).to.deep.equal(notFound(clock.id));
    expect((await client.get(`/v1/test-clocks/${clock.id}`, { token: other.token })).status).to.equal(404);
    expect((await advanceClock(client, other.token, clock.id, later(1))).status).to.equal(404);
  });

  it('deletes a clock: 204, then 404 test_clock_not_found, unlisted, its id refused at creation; its operations stay readable', async () => {
    const clock = await readyClock(client, token, start);
    const operation = await createDirect(client, token, directBody({ test_clock_id: clock.id, email: `clock+${randomUUID()}@example.com` }));
    expect(operation.status, operation.text).to.equal(201);
    expect((await client.delete(`/v1/test-clocks/${clock.id}`, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } })).status).to.equal(204);
    const read = await client.get(`/v1/test-clocks/${clock.id}`, { token });
    expect([read.status, read.body]).to.deep.equal([404, { detail: 'test_clock_not_found' }]);
    expect((await advanceClock(client, token, clock.id, later(1))).status).to.equal(404);
    const listed = (await client.get('/v1/test-clocks?limit=200', { token })).body;
    expect(listed.items.map((c: { id: string }) => c.id)).to.not.include(clock.id);
    expect((await createDirect(client, token, directBody({ test_clock_id: clock.id }))).body).to.deep.equal(notFound(clock.id));
    const kept = await client.get(`/v1/operations/${operation.body.id}`, { token });
    expect([kept.status, kept.body.test_clock_id]).to.deep.equal([200, clock.id]);
  });

  it('lists the originator\'s clocks newest first, paginated, and replays a creation sent again with its Idempotency-Key', async () => {
    const own = await buildOperationsIntegrator(client);
    const key = newIdempotencyKey();
    const first = await client.post('/v1/test-clocks', { name: 'first' }, { token: own.token, headers: { 'Idempotency-Key': key } });
    const again = await client.post('/v1/test-clocks', { name: 'first' }, { token: own.token, headers: { 'Idempotency-Key': key } });
    expect(again.body).to.deep.equal(first.body);
    expect(Date.parse(first.body.deletes_after) - Date.parse(first.body.created_at)).to.equal(30 * DAY_MS);
    const second = (await createClock(client, own.token, { name: 'second' })).body;
    const page = (await client.get('/v1/test-clocks?limit=1', { token: own.token })).body;
    expect(page).to.deep.include({ total: 2, limit: 1, offset: 0 });
    expect(page.items).to.deep.equal([second]);
  });
});

describe('test clocks in production', () => {
  it('do not exist: every /v1/test-clocks route is 404 not_found and test_clock_id is 422 test_clock_not_found', async () => {
    const prod = new ApiClient((await anotherApi(productionEnv())).url);
    const token = await tokenFor(prod, await buildCredential({ env: 'prod' }));
    const id = randomUUID();
    const answers = [
      await prod.post('/v1/test-clocks', {}, { token }),
      await prod.get('/v1/test-clocks', { token }),
      await prod.get(`/v1/test-clocks/${id}`, { token }),
      await prod.delete(`/v1/test-clocks/${id}`, { token }),
      await prod.post(`/v1/test-clocks/${id}/advance`, { frozen_time: new Date().toISOString() }, { token }),
    ];
    for (const res of answers) expect([res.status, res.body]).to.deep.equal([404, { detail: 'not_found' }]);
    const simulated = await prod.post('/v1/simulate', { receivables: [receivable()], test_clock_id: id }, { token });
    expect([simulated.status, simulated.body]).to.deep.equal([422, notFound(id)]);
    const document = (await prod.get('/v1/openapi.json')).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/v1/test-clocks'))).to.deep.equal([]);
  });
});
