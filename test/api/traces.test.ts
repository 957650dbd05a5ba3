import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startChild, Child } from '../support/child-process';
import { ApiClient } from '../support/http';
import { OtlpCollector } from '../support/otlp-collector';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { sharedApi } from '../support/stack';

const SERVER = 2;

/**
 * The api, a worker and the sandbox as separate processes exporting to one collector, as they run
 * in production: the trace of a creation must cross all three through Temporal and HTTP.
 */
describe('traces: one creation followed from the request to the PIX provider', function () {
  this.timeout(120_000);
  let collector: OtlpCollector;
  const children: Child[] = [];
  let api: ApiClient;

  before(async () => {
    collector = await OtlpCollector.start();
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, LOG_LEVEL: 'error', SERVICE_ENV: 'dev' };
    const taskQueue = `traces-${randomUUID()}`;
    const sandbox = await startChild('sandbox/main.ts', { ...traced, SANDBOX_PORT: '0', SANDBOX_SETTLEMENT_DELAY_MS: '50' }, /sandbox providers on (http:\/\/[\d.:]+)/);
    children.push(sandbox);
    const providers = { ESIGN_URL: `${sandbox.match[1]}/esign`, PIX_URL: `${sandbox.match[1]}/pix`, TEMPORAL_TASK_QUEUE: taskQueue };
    const apiChild = await startChild('api/server.ts', { ...traced, ...providers, PORT: '0' }, /api listening on (http:\/\/[\d.:]+)/);
    children.push(apiChild);
    children.push(await startChild('worker/main.ts', { ...traced, ...providers, PUBLIC_URL: apiChild.match[1] }, /worker polling task queue/));
    api = new ApiClient(apiChild.match[1]);
  });

  after(async () => {
    for (const child of children) await child.kill('SIGTERM');
    await collector.close();
  });

  it('answers with the traceparent of its trace, which holds the api, the workflow, the PIX activity and the sandbox\'s answer', async () => {
    const { token } = await buildOperationsIntegrator(api);
    const created = await createDirect(api, token);
    expect(created.status, created.text).to.equal(201);
    const traceparent = created.headers.get('traceparent') ?? '';
    expect(traceparent).to.match(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = traceparent.split('-')[1];
    await signAll(api, token, created.body.id);
    await untilStatus(api, token, created.body.id, 'PAID');

    await eventually(async () => {
      const spans = collector.inTrace(traceId);
      const request = spans.find((s) => s.service === 'receivables-api' && s.kind === SERVER && s.attributes['http.route'] === '/v1/operations/direct');
      expect(request, 'the api\'s server span of the creation').to.not.equal(undefined);
      expect(request!.spanId).to.equal(traceparent.split('-')[2]);
      expect(spans.some((s) => s.service === 'receivables-api' && s.name === 'StartWorkflow:operationWorkflow')).to.equal(true);
      expect(spans.some((s) => s.service === 'receivables-worker' && s.name === 'RunWorkflow:operationWorkflow')).to.equal(true);
      const pix = spans.find((s) => s.service === 'receivables-worker' && s.name === 'RunActivity:startDisbursement');
      expect(pix, 'the PIX activity').to.not.equal(undefined);
      const payment = spans.find((s) => s.service === 'receivables-sandbox' && s.kind === SERVER && String(s.attributes['http.target'] ?? s.attributes['url.path'] ?? '').startsWith('/pix/payments'));
      expect(payment, 'the sandbox answering the PIX order').to.not.equal(undefined);
      const call = spans.find((s) => s.spanId === payment!.parentSpanId);
      expect(call?.service, 'the order is the worker\'s call').to.equal('receivables-worker');
    }, 20_000);
    const leaked = collector.spans.filter((s) => JSON.stringify(s.attributes).includes('/esign/sign/'));
    expect(leaked, 'a signing link carries the signer\'s token: never in a span').to.deep.equal([]);
  });

  it('continues a caller\'s trace: the response names the caller\'s trace id', async () => {
    const callerTrace = randomUUID().replace(/-/g, '');
    const res = await api.get('/v1/health', { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
    expect(res.headers.get('traceparent')).to.match(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));
  });
});

describe('traceparent with tracing off (no OTLP endpoint: no SDK, nothing exported)', () => {
  it('still answers every request with a traceparent, continuing the caller\'s trace id, not sampled', async () => {
    const api = new ApiClient((await sharedApi()).url);
    const fresh = await api.get('/v1/nowhere');
    expect(fresh.status).to.equal(404);
    expect(fresh.headers.get('traceparent')).to.match(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(fresh.headers.get('x-request-id')).to.be.a('string');
    const callerTrace = randomUUID().replace(/-/g, '');
    const continued = await api.get('/v1/health', { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
    expect(continued.headers.get('traceparent')).to.match(new RegExp(`^00-${callerTrace}-(?!00f067aa0ba902b7)[0-9a-f]{16}-00$`));
    const malformed = await api.get('/v1/health', { headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } });
    expect(malformed.headers.get('traceparent')).to.not.include('0'.repeat(32));
  });
});
