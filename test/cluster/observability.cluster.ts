/**
 * Runs only on the cluster, which brings Prometheus and Jaeger (`npm run test:cluster -- --apps
 * test/cluster/observability.cluster.ts`); not named *.test.ts, so `npm test` leaves it out.
 */
import { expect } from 'chai';
import { startOperationsTest, createDirect } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this file with npm run test:cluster -- --apps`);
  return value;
}

async function promQuery(prometheus: string, query: string): Promise<number> {
  const res = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = await res.json() as { status: string; data: { result: { value: [number, string] }[] } };
  expect(body.status, query).to.equal('success');
  return body.data.result.reduce((sum, sample) => sum + Number(sample.value[1]), 0);
}

interface JaegerTrace { spans: { operationName: string; processID: string; tags: { key: string; value: unknown }[] }[]; processes: Record<string, { serviceName: string }> }

describe('the cluster observed: Prometheus and Jaeger', function () {
  this.timeout(180_000);

  it('after a direct creation driven to PAID, Prometheus holds its series and Jaeger its trace', async () => {
    const prometheus = required('TEST_PROMETHEUS_URL');
    const jaeger = required('TEST_JAEGER_URL');
    const { client, token } = await startOperationsTest();
    const created = await createDirect(client, token);
    expect(created.status, created.text).to.equal(201);
    const traceId = (created.headers.get('traceparent') ?? '').split('-')[1];
    expect(traceId).to.match(/^[0-9a-f]{32}$/);
    await signAll(client, token, created.body.id);
    await untilStatus(client, token, created.body.id, 'PAID', 60_000);

    await eventually(async () => {
      expect(await promQuery(prometheus, 'sum(http_server_request_duration_seconds_count{job="receivables-api", http_route="/v1/operations/direct", http_request_method="POST"})')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'sum(receivables_operation_transitions_total{to="PAID"})')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'sum(receivables_pix_disbursements_total{outcome="settled"})')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'count({job="receivables-worker", __name__=~"temporal_worker_task_slots_available|temporal_workflow_task_schedule_to_start_latency_seconds_count"})')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'sum(temporal_request_total{job="receivables-api", operation="StartWorkflowExecution"})'), 'the api\'s own Temporal calls').to.be.greaterThan(0);
      // The Temporal server's matching figures, under the names the matching alerts read, and their recording rules.
      expect(await promQuery(prometheus, 'sum(poll_success_total{job="temporal-server"})')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'count(taskqueue:temporal_sync_match_ratio:rate15m)')).to.be.greaterThan(0);
      expect(await promQuery(prometheus, 'count(up == 1)'), 'every target up').to.equal(await promQuery(prometheus, 'count(up)'));
      expect(await promQuery(prometheus, 'count(up{job=~"temporal-server|receivables-sandbox"} == 1)')).to.equal(2);
    }, 60_000);

    const trace = await eventually(async () => {
      const res = await fetch(`${jaeger}/api/traces/${traceId}`);
      expect(res.status).to.equal(200);
      const [found] = ((await res.json()) as { data: JaegerTrace[] }).data;
      const services = new Set(found.spans.map((span) => found.processes[span.processID].serviceName));
      expect([...services]).to.include.members(['receivables-api', 'receivables-worker', 'receivables-sandbox']);
      expect(found.spans.map((span) => span.operationName)).to.include.members(['POST /v1/operations/direct', 'RunWorkflow:operationWorkflow', 'RunActivity:startDisbursement']);
      return found;
    }, 30_000);
    const sandboxPix = trace.spans.filter((span) => trace.processes[span.processID].serviceName === 'receivables-sandbox'
      && span.tags.some((tag) => String(tag.value).startsWith('/pix/payments')));
    expect(sandboxPix, 'the sandbox answering the PIX order, in the same trace').to.not.deep.equal([]);
  });
});
