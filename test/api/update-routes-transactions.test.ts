import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { anotherApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { buildUser, loginAs } from '../support/factories';

/** Backends of the test database inside a transaction opened more than a second ago and now waiting on their client. */
const longIdleTransactions = async () => (await testDb().raw(
  "select pid, query from pg_stat_activity where datname = current_database() and state like 'idle in transaction%' and now() - xact_start > interval '1 second'",
)).rows;

/**
 * Every route that waits on a workflow update (issue #23: no transaction held across a workflow
 * wait) holds no database transaction while Temporal does not answer. The api here has a task queue
 * with no worker, so each update waits out the api's update deadline (4 s here, not 20: what is
 * tested is that the wait holds nothing, not its length) and is answered 503.
 */
const UPDATE_DEADLINE_MS = 4_000;
describe('routes that wait on a workflow update and database transactions', function () {
  this.timeout(120_000);

  it('hold no transaction while the workflow does not answer, then answer 503 workflow_unavailable', async () => {
    const api = await anotherApi({ TEMPORAL_TASK_QUEUE: `updates-${randomUUID()}`, TEMPORAL_UPDATE_DEADLINE_MS: String(UPDATE_DEADLINE_MS) });
    const client = new ApiClient(api.url);
    const { token } = await buildOperationsIntegrator(client);
    const backoffice = await loginAs(client, await buildUser());
    const created = await createDirect(client, token, directBody({ email: `updates+${randomUUID()}@example.com` }));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;

    const waiting = [
      client.post(`/v1/operations/${id}/cancel`, { reason: 'waiting' }, { token }),
      client.post(`/v1/operations/${id}/contract/send-for-signature`, {}, { token }),
      client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: backoffice }),
      client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'waiting' }, { token: backoffice }),
      client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: backoffice }),
      client.post(`/v1/backoffice/operations/${id}/contract/send-for-signature`, {}, { token: backoffice }),
    ];
    await sleep(2_000);
    expect(await longIdleTransactions()).to.deep.equal([]);
    for (const answer of await Promise.all(waiting)) {
      expect(answer.status, answer.text).to.equal(503);
      expect(answer.body).to.deep.equal({ detail: 'workflow_unavailable' });
    }
  });
});
