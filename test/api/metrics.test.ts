import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { anotherApi, sharedApi, sharedWorker } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';
import { ApiClient } from '../support/http';
import { createDirect, startOperationsTest } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { scrape, valueOf } from '../support/metrics';
import { eventually } from '../support/webhooks';

const DURATION = 'http_server_request_duration_seconds_count';

/** Requests whose paths, methods, queries and headers are all made up afresh on each call. */
async function madeUpRequests(client: ApiClient, token: string): Promise<void> {
  const noise = randomUUID();
  await client.get(`/v1/${noise}`);
  await client.get(`/v1/operations/${noise}`, { token });
  await client.get(`/v1/operations/${noise}/contract/signers?x=${noise}`, { token, headers: { 'X-Request-Id': noise, 'X-Correlation-Id': noise } });
  // Node's parser takes only methods it knows: PURGE is one HTTP does not define.
  await client.request('PURGE', '/v1/health');
  await client.post(`/v1/simulate?${noise}=1`, { [noise]: noise }, { token });
  await client.get(`/backoffice/${noise}`);
  await client.get(`/docs/${noise}.js`);
  await client.delete(`/v1/webhooks/${noise}`, { token });
}

function seriesOf(metrics: Map<string, number>, name: string): string[] {
  return [...metrics.keys()].filter((key) => key.startsWith(`${name}{`)).sort();
}

describe('metrics: each process on its own listener, in Prometheus text format', () => {
  it('times each request by method, route template and status code, never by the path it was sent to', async () => {
    const { client, token } = await startOperationsTest();
    const { metricsUrl } = await sharedApi();
    const id = randomUUID();
    await client.get(`/v1/operations/${id}`, { token });
    const metrics = await scrape(metricsUrl);
    expect(valueOf(metrics, DURATION, { http_request_method: 'GET', http_route: '/v1/operations/{id}', http_response_status_code: '404' })).to.be.greaterThan(0);
    expect([...metrics.keys()].some((key) => key.includes(id))).to.equal(false);
  });

  it('creates no new series from anything a request carries: a second batch of made-up requests adds none', async () => {
    const { client, token } = await startOperationsTest();
    const { metricsUrl } = await sharedApi();
    await madeUpRequests(client, token);
    const before = await scrape(metricsUrl);
    await madeUpRequests(client, token);
    const after = await scrape(metricsUrl);
    expect(seriesOf(after, DURATION)).to.deep.equal(seriesOf(before, DURATION));
    expect([...after.keys()].filter((key) => !before.has(key))).to.deep.equal([]);
    expect(valueOf(after, DURATION, { http_route: 'unmatched' })).to.be.greaterThan(valueOf(before, DURATION, { http_route: 'unmatched' }));
    expect(valueOf(after, DURATION, { http_request_method: '_OTHER' })).to.be.greaterThan(valueOf(before, DURATION, { http_request_method: '_OTHER' }));
  });

  it('counts a direct creation to PAID: transitions, the PIX order and settlement, operations per state, and the Temporal runtime\'s own metrics', async () => {
    const { client, token } = await startOperationsTest();
    const [{ metricsUrl: apiMetrics }, { metricsUrl: workerMetrics }] = await Promise.all([sharedApi(), sharedWorker()]);
    const [apiBefore, workerBefore] = await Promise.all([scrape(apiMetrics), scrape(workerMetrics)]);
    const created = await createDirect(client, token);
    expect(created.status, created.text).to.equal(201);
    await signAll(client, token, created.body.id);
    await untilStatus(client, token, created.body.id, 'PAID');

    const grew = (before: Map<string, number>, after: Map<string, number>, name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    // The figures read from Postgres are kept a few seconds, for all scrapers of the moment.
    const apiAfter = await eventually(async () => {
      const now = await scrape(apiMetrics);
      expect(valueOf(now, 'receivables_operations', { lifecycle_status: 'PAID' })).to.be.at.least(1);
      return now;
    });
    expect(grew(apiBefore, apiAfter, 'receivables_operation_transitions_total', { to: 'APPROVED_DIRECT' })).to.be.at.least(1);
    expect(grew(apiBefore, apiAfter, DURATION, { http_request_method: 'POST', http_route: '/v1/operations/direct', http_response_status_code: '201' })).to.be.at.least(1);
    expect(valueOf(apiAfter, 'receivables_database_up')).to.equal(1);
    expect(apiAfter.has('receivables_outbox_pending')).to.equal(true);
    expect(apiAfter.has('db_client_connection_pending_requests{db_client_connection_pool_name="api"}')).to.equal(true);
    expect(grew(apiBefore, apiAfter, 'receivables_cache_requests_total', { cache: 'credentials' })).to.be.at.least(1);
    expect(grew(apiBefore, apiAfter, 'temporal_request_total', { operation: 'StartWorkflowExecution' }), 'the api\'s own start').to.be.at.least(1);
    expect(grew(apiBefore, apiAfter, 'temporal_request_latency_seconds_count', { operation: 'StartWorkflowExecution' })).to.be.at.least(1);

    const workerAfter = await eventually(async () => {
      const now = await scrape(workerMetrics);
      expect(grew(workerBefore, now, 'receivables_pix_disbursements_total', { outcome: 'settled' })).to.be.at.least(1);
      return now;
    });
    for (const to of ['CONTRACT_SENT', 'SIGNED', 'DISBURSING', 'PAID']) {
      expect(grew(workerBefore, workerAfter, 'receivables_operation_transitions_total', { to }), to).to.be.at.least(1);
    }
    expect(grew(workerBefore, workerAfter, 'receivables_pix_disbursements_total', { outcome: 'ordered' })).to.be.at.least(1);
    const temporal = [...workerAfter.keys()].filter((key) => key.startsWith('temporal_'));
    expect(temporal.some((key) => key.startsWith('temporal_worker_task_slots_available'))).to.equal(true);
    expect(temporal.some((key) => key.startsWith('temporal_workflow_task_schedule_to_start_latency_seconds_bucket'))).to.equal(true);
    // The runtime labels its own series; the api's client (in this test process too) does not.
    expect(temporal.some((key) => key.startsWith('temporal_request_total') && key.includes('service_name="temporal-core-sdk"'))).to.equal(true);
  });

  it('counts the api\'s own Temporal calls, each attempt, and their failures by gRPC status, as the runtime counts a worker\'s', async () => {
    const { token } = await startOperationsTest();
    const [host, port] = process.env.TEMPORAL_ADDRESS!.split(':');
    const proxy = await TcpProxy.start({ host, port: Number(port) });
    try {
      const api = new ApiClient((await anotherApi({ TEMPORAL_ADDRESS: `127.0.0.1:${proxy.port}` })).url);
      const { metricsUrl } = await sharedApi();
      const before = await scrape(metricsUrl);
      proxy.cut();
      // Committed and answered; its start failed and is left to the relay.
      expect((await createDirect(api, token)).status).to.equal(201);
      const after = await scrape(metricsUrl);
      const start = { namespace: 'default', operation: 'StartWorkflowExecution' };
      const failed = valueOf(after, 'temporal_request_failure_total', { ...start, status_code: 'UNAVAILABLE' }) - valueOf(before, 'temporal_request_failure_total', { ...start, status_code: 'UNAVAILABLE' });
      expect(failed, 'the refused attempts').to.be.at.least(1);
      expect(valueOf(after, 'temporal_request_total', start) - valueOf(before, 'temporal_request_total', start), 'every attempt is a request').to.be.at.least(failed);
      expect(seriesOf(after, 'temporal_request_failure_total').every((key) => /status_code="[A-Z_]+"/.test(key))).to.equal(true);
    } finally {
      await proxy.close();
    }
  });

  it('answers only GET /metrics on the listener', async () => {
    const { metricsUrl } = await sharedApi();
    const res = await fetch(metricsUrl.replace(/\/metrics$/, '/v1/health'));
    expect(res.status).to.equal(404);
  });
});
