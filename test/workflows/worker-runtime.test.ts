import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:net';
import { startWorker } from '../../worker/main';
import { runtimeMetricsUrl } from '../../worker/runtime';
import { stopSharedWorker, testConfig } from '../support/stack';

/** Holds `port` as another process would; the runtime may take a moment to release it after its shutdown. */
async function squat(port: number): Promise<Server> {
  for (let attempt = 1; ; attempt += 1) {
    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
      return server;
    } catch (err) {
      if (attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('the worker process\'s Temporal runtime', function () {
  this.timeout(60_000);

  it('starts a worker again after the runtime shut down with its last worker and another process took its metrics port', async () => {
    // The SDK shuts the runtime down once no worker or connection of the process is left.
    await stopSharedWorker();
    const config = testConfig({ TEMPORAL_TASK_QUEUE: `runtime-${randomUUID()}` });
    const first = await startWorker(config);
    const taken = Number(new URL(runtimeMetricsUrl()!).port);
    await first.stop();
    const squatter = await squat(taken);
    try {
      const second = await startWorker(config);
      try {
        expect(Number(new URL(runtimeMetricsUrl()!).port)).to.not.equal(taken);
        const scraped = await (await fetch(second.metricsUrl)).text();
        expect(scraped).to.match(/^temporal_/m);
      } finally {
        await second.stop();
      }
    } finally {
      squatter.close();
    }
  });

  it('starts two workers at once on one runtime, installed once', async () => {
    await stopSharedWorker();
    const workers = await Promise.all([1, 2].map(() => startWorker(testConfig({ TEMPORAL_TASK_QUEUE: `runtime-${randomUUID()}` }))));
    try {
      for (const worker of workers) expect(await (await fetch(worker.metricsUrl)).text()).to.match(/^temporal_/m);
    } finally {
      for (const worker of workers) await worker.stop();
    }
  });
});
