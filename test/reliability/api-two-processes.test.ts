import { expect } from 'chai';
import { anotherApi, sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { cpf } from '../support/documents';
import { newIdempotencyKey } from '../support/idempotency';
import { startChild } from '../support/child-process';

describe('two api processes share one rate-limit budget and one idempotency record', () => {
  const settings = { TRUST_PROXY: 'true', RATE_LIMIT_IP_RPM: '4', RATE_LIMIT_TOKEN_RPM: '1000000' };
  let processA: ApiClient;
  let processB: ApiClient;
  let stopB: () => Promise<void>;
  let token: string;
  before(async function () {
    this.timeout(60_000);
    processA = new ApiClient((await anotherApi(settings)).url);
    // The second one is its own OS process: nothing but Postgres is shared.
    const child = await startChild('api/server.ts', { ...settings, PORT: '0', LOG_LEVEL: 'error', SERVICE_ENV: 'dev' }, /api listening on (http:\/\/[\d.:]+)/);
    processB = new ApiClient(child.match[1]);
    stopB = () => child.kill('SIGTERM');
    ({ token } = await buildIntegrator(new ApiClient((await sharedApi()).url)));
  });
  after(async () => { await stopB(); });

  it('counts one origin address once across both processes', async () => {
    const from = { headers: { 'X-Forwarded-For': '203.0.113.7' } };
    const remaining: (string | null)[] = [];
    for (const api of [processA, processB, processA, processB]) {
      const res = await api.get('/v1/flow', from);
      expect(res.status).to.equal(200);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).to.deep.equal(['3', '2', '1', '0']);
    for (const api of [processA, processB]) {
      const refused = await api.get('/v1/flow', from);
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.include({ scope: 'ip', limit_rpm: 4 });
    }
  });

  it('executes a keyed request once, whichever process each attempt reaches', async () => {
    const body = { name: 'Maria Souza', type: 'F', cpf: cpf(), email: 'maria@example.com' };
    const key = newIdempotencyKey();
    const post = (api: ApiClient) => api.post('/v1/assignors', body, { token, headers: { 'Idempotency-Key': key, 'X-Forwarded-For': '203.0.113.8' } });
    const attempts = await Promise.all(Array.from({ length: 4 }, (_, i) => post(i % 2 === 0 ? processA : processB)));
    expect(attempts.map((r) => r.status)).to.deep.equal([201, 201, 201, 201]);
    expect(new Set(attempts.map((r) => r.text)).size).to.equal(1);
    expect(attempts.filter((r) => r.headers.get('idempotency-replayed') === null)).to.have.length(1);
    const list = await processB.get('/v1/assignors?limit=200', { token, headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(list.body.items.filter((a: { document: string }) => a.document === body.cpf)).to.have.length(1);
  });
});
