import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startChild, Child } from '../support/child-process';
import { ApiClient } from '../support/http';
import { OtlpCollector } from '../support/otlp-collector';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { anotherApi, sharedApi, stopSharedWorker } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';
import { startReceiver, TestReceiver } from '../support/https-receiver';
import { webhookWorkerEnv } from '../support/webhooks';

const SERVER = 2;
const CLIENT = 3;

/** The JSON log lines a child writes from now on (winston: one object per line, on stdout or stderr). */
function logLines(child: Child): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        // not a log line (a start-up message)
      }
    }
  };
  child.process.stdout!.on('data', take);
  child.process.stderr!.on('data', take);
  return lines;
}

/**
 * The api, a worker and the sandbox as separate processes exporting to one collector, as they run
 * in production: the trace of a creation must cross all three through Temporal and HTTP.
 */
describe('traces: one creation followed from the request to the PIX provider', function () {
  this.timeout(120_000);
  let collector: OtlpCollector;
  const children: Child[] = [];
  let api: ApiClient;
  // The api reaches Temporal through a proxy a test can cut, leaving a start to the worker's relay.
  let apiToTemporal: TcpProxy;
  let apiLog: Record<string, unknown>[];
  let workerLog: Record<string, unknown>[];
  let receiver: TestReceiver;

  before(async () => {
    // The test process's worker (if an earlier file started it) would race the child worker for the outbox and the events.
    await stopSharedWorker();
    collector = await OtlpCollector.start();
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, LOG_LEVEL: 'info', SERVICE_ENV: 'dev' };
    const taskQueue = `traces-${randomUUID()}`;
    const sandbox = await startChild('sandbox/main.ts', { ...traced, LOG_LEVEL: 'error', SANDBOX_PORT: '0', SANDBOX_SETTLEMENT_DELAY_MS: '50' }, /sandbox providers on (http:\/\/[\d.:]+)/);
    children.push(sandbox);
    const providers = { ESIGN_URL: `${sandbox.match[1]}/esign`, PIX_URL: `${sandbox.match[1]}/pix`, TEMPORAL_TASK_QUEUE: taskQueue };
    const [host, port] = process.env.TEMPORAL_ADDRESS!.split(':');
    apiToTemporal = await TcpProxy.start({ host, port: Number(port) });
    const apiChild = await startChild('api/server.ts', {
      ...traced, ...providers, PORT: '0', TEMPORAL_ADDRESS: `127.0.0.1:${apiToTemporal.port}`, WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    }, /api listening on (http:\/\/[\d.:]+)/);
    children.push(apiChild);
    apiLog = logLines(apiChild);
    const workerChild = await startChild('worker/main.ts', {
      ...traced, ...providers, ...(await webhookWorkerEnv()), PUBLIC_URL: apiChild.match[1], OUTBOX_RELAY_AFTER_MS: '500', OUTBOX_RELAY_INTERVAL_MS: '250',
    }, /worker polling task queue/);
    children.push(workerChild);
    workerLog = logLines(workerChild);
    api = new ApiClient(apiChild.match[1]);
    // The first attempt is refused, so the worker logs a failed attempt from inside the delivery's activity.
    receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
  });

  after(async () => {
    for (const child of children) await child.kill('SIGTERM');
    await receiver.close();
    await apiToTemporal.close();
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
      // The api's start after commit, or the relay's when a loaded api had no time left for it: either is in the trace.
      expect(spans.some((s) => s.name === 'StartWorkflow:operationWorkflow')).to.equal(true);
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

  it('keeps the request\'s trace through the outbox relay\'s start and the webhook delivery of an event, and in the log lines of both processes', async () => {
    const { token } = await buildOperationsIntegrator(api);
    // An IP literal: the worker resolves names with the system resolver, and the receiver's certificate names 127.0.0.1.
    const subscribed = await api.post('/v1/webhooks', { url: receiver.url().replace('receiver.test', '127.0.0.1'), events: ['operation.created'] }, { token });
    expect(subscribed.status, subscribed.text).to.equal(201);

    apiToTemporal.cut();
    let created;
    try {
      created = await createDirect(api, token);
      expect(created.status, created.text).to.equal(201);
      // Left to the relay: the worker's start, not the api's, continues the request's trace.
      await eventually(async () => {
        const starts = collector.spans.filter((s) => s.name === 'StartWorkflow:operationWorkflow' && s.attributes.temporalWorkflowId === `operation-${created!.body.id}`);
        expect(starts.map((s) => s.service)).to.include('receivables-worker');
      }, 30_000);
    } finally {
      apiToTemporal.restore();
    }
    const [, traceId, requestSpanId] = (created.headers.get('traceparent') ?? '').split('-');

    const [refused, delivered] = await receiver.waitForRequests(2, 30_000);
    for (const got of [refused, delivered]) {
      expect(String(got.headers.traceparent), 'the delivery POST carries the creation\'s trace').to.match(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    }
    expect(delivered.body.event_type).to.equal('operation.created');

    await eventually(async () => {
      const spans = collector.inTrace(traceId);
      const relayed = spans.find((s) => s.service === 'receivables-worker' && s.name === 'StartWorkflow:operationWorkflow');
      expect(relayed, 'the relay\'s start, in the request\'s trace').to.not.equal(undefined);
      expect(relayed!.parentSpanId, 'under the request\'s server span').to.equal(requestSpanId);
      expect(spans.some((s) => s.service === 'receivables-worker' && s.name === 'RunActivity:recordOperationCreated')).to.equal(true);
      expect(spans.some((s) => s.service === 'receivables-worker' && s.name === 'StartWorkflow:webhookDelivery'), 'the dispatcher\'s start').to.equal(true);
      expect(spans.some((s) => s.service === 'receivables-worker' && s.name === 'RunWorkflow:webhookDelivery')).to.equal(true);
      const posts = spans.filter((s) => s.service === 'receivables-worker' && s.kind === CLIENT && s.spanId === String(delivered.headers.traceparent).split('-')[2]);
      expect(posts, 'the POST the receiver got is a span of the trace').to.have.length(1);
    }, 20_000);

    const requestLine = apiLog.find((line) => line.message === 'request' && line.route === '/v1/operations/direct' && line.trace_id === traceId);
    expect(requestLine, 'the api\'s request log line names the trace and the server span').to.include({ trace_id: traceId, span_id: requestSpanId, status: 201 });
    const attemptLine = workerLog.find((line) => line.message === 'webhook attempt failed');
    expect(attemptLine, 'the worker\'s line written inside the delivery activity').to.include({ trace_id: traceId });
    const activitySpan = collector.inTrace(traceId).find((s) => s.spanId === attemptLine!.span_id);
    expect(activitySpan?.name, 'its span_id is the activity\'s span').to.equal('RunActivity:attemptWebhookDelivery');
  });

  it('exports one server span per api request, named by its route template, with the stable HTTP conventions\' attributes and no query', async () => {
    const { token } = await buildOperationsIntegrator(api);
    const id = randomUUID();
    const matched = await api.get(`/v1/operations/${id}`, { token });
    const unmatched = await api.get('/v1/nowhere?q=1');
    // Temporal out of reach: the health check answers 503 once its next probe has seen it.
    apiToTemporal.cut();
    let failed;
    try {
      failed = await eventually(async () => {
        const res = await api.get('/v1/health');
        expect(res.status).to.equal(503);
        return res;
      }, 15_000);
    } finally {
      apiToTemporal.restore();
    }
    expect([matched.status, unmatched.status, failed.status]).to.deep.equal([404, 404, 503]);
    const serverSpanOf = (res: { headers: Headers }) => {
      const [, traceId, spanId] = String(res.headers.get('traceparent')).split('-');
      const spans = collector.inTrace(traceId).filter((s) => s.service === 'receivables-api' && s.kind === SERVER);
      expect(spans.map((s) => s.spanId), 'the one server span, the one the traceparent names').to.deep.equal([spanId]);
      return spans[0];
    };
    await eventually(async () => {
      for (const res of [matched, unmatched, failed]) serverSpanOf(res);
    }, 10_000);
    const plainSpan = (res: { headers: Headers }) => {
      const { name, status, attributes } = serverSpanOf(res);
      const code = attributes['http.response.status_code'];
      return { name, status, attributes: { ...attributes, 'http.response.status_code': code === undefined ? code : Number(code) } };
    };
    expect(plainSpan(matched)).to.deep.equal({
      name: 'GET /v1/operations/{id}',
      status: 0,
      attributes: { 'http.request.method': 'GET', 'url.scheme': 'http', 'url.path': `/v1/operations/${id}`, 'http.route': '/v1/operations/{id}', 'http.response.status_code': 404 },
    });
    expect(plainSpan(unmatched), 'no route: the method alone names it').to.deep.equal({
      name: 'GET',
      status: 0,
      attributes: { 'http.request.method': 'GET', 'url.scheme': 'http', 'url.path': '/v1/nowhere', 'http.response.status_code': 404 },
    });
    expect(plainSpan(failed), 'a 5xx is an error of the span').to.deep.equal({
      name: 'GET /v1/health',
      status: 2,
      attributes: {
        'http.request.method': 'GET', 'url.scheme': 'http', 'url.path': '/v1/health', 'http.route': '/v1/health', 'http.response.status_code': 503, 'error.type': '503',
      },
    });
  });

  it('samples by OTEL_TRACES_SAMPLER: a caller\'s sampled trace is followed, a new trace is left out at ratio 0', async () => {
    const sampled = await startChild('api/server.ts', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'receivables-api-sampled', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0',
      SERVICE_ENV: 'dev', PORT: '0',
    }, /api listening on (http:\/\/[\d.:]+)/);
    children.push(sampled);
    const client = new ApiClient(sampled.match[1]);
    const fresh = await client.get('/v1/health');
    const [, freshTrace, , freshFlags] = String(fresh.headers.get('traceparent')).split('-');
    expect(freshFlags, 'a new trace, not sampled').to.equal('00');
    const callerTrace = randomUUID().replace(/-/g, '');
    const followed = await client.get('/v1/health', { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
    expect(followed.headers.get('traceparent')).to.match(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));
    await eventually(async () => {
      const [span] = collector.inTrace(callerTrace);
      expect(span, 'the caller\'s sampled trace is recorded').to.include({ service: 'receivables-api-sampled', parentSpanId: '00f067aa0ba902b7', name: 'GET /v1/health' });
    }, 10_000);
    // Exported in order, by the same batch or an earlier one: had it been recorded, it would be here by now.
    expect(collector.inTrace(freshTrace)).to.deep.equal([]);
  });

  it('exports the server span with its wall-clock start and end around the request, under the api\'s scope, carrying the caller\'s tracestate on', async () => {
    const callerTrace = randomUUID().replace(/-/g, '');
    const before = BigInt(Date.now()) * 1_000_000n;
    const res = await api.get('/v1/health', { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01`, tracestate: 'vendor=opaque,other=1' } });
    const after = BigInt(Date.now()) * 1_000_000n;
    expect(res.status).to.equal(200);
    const span = await eventually(async () => {
      const [found] = collector.inTrace(callerTrace);
      expect(found, 'the request\'s server span').to.not.equal(undefined);
      return found;
    }, 10_000);
    expect(span).to.include({ service: 'receivables-api', kind: SERVER, scope: 'receivables-api', parentSpanId: '00f067aa0ba902b7', traceState: 'vendor=opaque,other=1' });
    // Two processes' clocks read at different moments: a few milliseconds of slack either side.
    const slack = 20_000_000n;
    expect(span.startTimeUnixNano >= before - slack, 'started after the request was sent').to.equal(true);
    expect(span.endTimeUnixNano >= span.startTimeUnixNano, 'ended after it started').to.equal(true);
    expect(span.endTimeUnixNano <= after + slack, 'ended before the answer was read').to.equal(true);
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

  it('gives every request ids of its own, across more requests than one draw of random bytes serves', async () => {
    const api = new ApiClient((await sharedApi()).url);
    const traceparents: string[] = [];
    // 256 requests' ids come from one draw; the next draw must not repeat them.
    for (let batch = 0; batch < 6; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.get('/v1/nowhere')));
      traceparents.push(...answers.map((res) => String(res.headers.get('traceparent'))));
    }
    for (const traceparent of traceparents) expect(traceparent).to.match(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(new Set(traceparents.map((t) => t.split('-')[1])).size, 'trace ids').to.equal(300);
    expect(new Set(traceparents.map((t) => t.split('-')[2])).size, 'span ids').to.equal(300);
  });

  it('writes the request\'s log line with the trace id and span id of its traceparent', async () => {
    const api = new ApiClient((await anotherApi({ LOG_LEVEL: 'info' })).url);
    const callerTrace = randomUUID().replace(/-/g, '');
    const written: string[] = [];
    const write = process.stdout.write;
    // The logger's console transport writes to this process's stdout: read it for the one request.
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    }) as typeof process.stdout.write;
    let res;
    try {
      res = await api.get('/v1/health', { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
      await eventually(async () => expect(written.join('')).to.include(callerTrace), 5_000);
    } finally {
      process.stdout.write = write;
    }
    const [, , spanId] = String(res.headers.get('traceparent')).split('-');
    const line = written.join('').split('\n').filter((l) => l.includes(callerTrace)).map((l) => JSON.parse(l)).find((l) => l.message === 'request');
    expect(line).to.include({ trace_id: callerTrace, span_id: spanId, route: '/v1/health' });
  });
});
