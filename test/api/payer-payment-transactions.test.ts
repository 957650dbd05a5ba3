import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWorker, RunningWorker } from '../../worker/main';
import { anotherApi, sharedSandbox, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { payerPayment, readTitle, simulatePayerPayment } from '../support/titles';

/** Backends of the test database sitting in an open transaction whose last statement touched the external_id records. */
const transactionsHeldOnExternalIds = async () => (await testDb().raw(
  "select pid from pg_stat_activity where datname = current_database() and state like 'idle in transaction%' and query ilike '%external_id_records%'",
)).rows;

/**
 * A payer payment waits on its operation's workflow (up to the update deadline) without holding a
 * database transaction, and a request kept from a row by another transaction says so. The api here
 * has a task queue of its own, with no worker until the test starts one, so Temporal is "slow"; its
 * update deadline is 4 s instead of 20 (what is tested is the wait's holding nothing, not its length).
 */
const UPDATE_DEADLINE_MS = 4_000;
describe('payer payments and database transactions', function () {
  this.timeout(120_000);
  let client: ApiClient;
  let token: string;
  let apiUrl: string;
  let taskQueue: string;
  let worker: RunningWorker | undefined;
  before(async () => {
    taskQueue = `payments-${randomUUID()}`;
    const api = await anotherApi({ TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_UPDATE_DEADLINE_MS: String(UPDATE_DEADLINE_MS) });
    apiUrl = api.url;
    client = new ApiClient(api.url);
    ({ token } = await buildOperationsIntegrator(client));
  });
  after(async () => worker?.stop());

  const operation = async () => {
    const created = await createDirect(client, token, directBody({ email: `payments+${randomUUID()}@example.com` }));
    expect(created.status, created.text).to.equal(201);
    return created.body;
  };

  it('answers 503 database_lock_timeout, within 2 s and writing nothing, when another transaction holds its external_id', async () => {
    const { titles: [title] } = await operation();
    const body = payerPayment({ paid_amount_brl: '100.00' });
    const holder = await testDb().transaction();
    try {
      await holder('external_id_records').insert({ grain: 'title_payer_payment', scope: title.id, external_id: body.external_id, request: '{}' });
      const started = Date.now();
      const res = await simulatePayerPayment(client, token, title.id, body);
      expect(Date.now() - started).to.be.below(2_000);
      expect(res.status, res.text).to.equal(503);
      expect(res.body).to.deep.equal({ detail: 'database_lock_timeout' });
    } finally {
      await holder.rollback();
    }
    expect(await testDb()('external_id_records').where({ scope: title.id })).to.deep.equal([]);
    expect(await readTitle(client, token, title.id)).to.include({ outstanding_balance: title.requested_net_future_value });
  });

  it('holds no transaction while Temporal does not answer, and a retry after the 503 applies the payment exactly once', async () => {
    const op = await operation();
    const title = op.titles[0];
    const body = payerPayment({ paid_amount_brl: '100.00' });
    const asked = Date.now();
    const waiting = simulatePayerPayment(client, token, title.id, body);
    await sleep(1_500);
    expect(await transactionsHeldOnExternalIds()).to.deep.equal([]);
    const unanswered = await waiting;
    expect(Date.now() - asked, 'answered by the update deadline').to.be.at.least(UPDATE_DEADLINE_MS);
    expect(unanswered.status, unanswered.text).to.equal(503);
    expect(unanswered.body).to.deep.equal({ detail: 'workflow_unavailable' });

    const sandbox = await sharedSandbox();
    worker = await startWorker(testConfig({ ESIGN_URL: sandbox.esignUrl, PIX_URL: sandbox.pixUrl, TEMPORAL_TASK_QUEUE: taskQueue, PUBLIC_URL: apiUrl }));
    await untilStatus(client, token, op.id, 'CONTRACT_SENT');
    await signAll(client, token, op.id);
    await untilStatus(client, token, op.id, 'PAID');

    const applied = await simulatePayerPayment(client, token, title.id, body);
    expect(applied.status, applied.text).to.equal(201);
    expect(applied.body).to.include({ paid_amount_brl: '100.00', idempotent_replay: false });
    const again = await simulatePayerPayment(client, token, title.id, body);
    expect(again.body).to.deep.equal({ ...applied.body, idempotent_replay: true });
    const remaining = (Number(title.requested_net_future_value) - 100).toFixed(2);
    expect(await readTitle(client, token, title.id)).to.include({ outstanding_balance: remaining, paid_amount: '100.00' });
  });
});
