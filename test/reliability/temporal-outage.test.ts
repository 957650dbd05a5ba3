import { expect } from 'chai';
import { anotherApi, sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * A stalled Temporal (a hung host, or a server waiting on its own frozen Postgres) must not hold a
 * reply: the workflow start after commit gets what is left of the request's time, and the outbox
 * relay starts what it could not.
 */
describe('the api while Temporal is frozen', function () {
  this.timeout(90_000);
  let proxy: TcpProxy;

  before(async () => {
    const [host, port] = process.env.TEMPORAL_ADDRESS!.split(':');
    proxy = await TcpProxy.start({ host, port: Number(port) });
  });
  after(async () => proxy.close());

  it('answers a creation 201 within 2 s, and the relay starts its workflow once Temporal is back', async () => {
    const shared = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const { token } = await buildOperationsIntegrator(shared);
    const api = new ApiClient((await anotherApi({ TEMPORAL_ADDRESS: `127.0.0.1:${proxy.port}` })).url);
    expect((await createDirect(api, token)).status, 'through the proxy before the freeze').to.equal(201);

    proxy.freeze();
    let created;
    try {
      const started = Date.now();
      created = await createDirect(api, token);
      expect(created.status, created.text).to.equal(201);
      expect(Date.now() - started).to.be.below(2_000);
      const outbox = await testDb()('workflow_outbox').where({ workflow_id: `operation-${created.body.id}` }).first();
      expect(outbox.started_at, 'left to the relay').to.equal(null);
    } finally {
      proxy.restore();
    }
    await untilStatus(shared, token, created.body.id, 'CONTRACT_SENT', 30_000);
  });
});
