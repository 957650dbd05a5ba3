import { randomUUID } from 'node:crypto';
import { ApiClient } from './http';
import { anotherApi, sharedSandbox } from './stack';
import { TcpProxy } from './tcp-proxy';

/** What a worker prints once it polls: startChild waits for it. */
export const WORKER_READY = /worker polling task queue/;

/**
 * An api on a task queue of its own, so only the workers a test starts run its workflows; the
 * environment those workers need; and a proxy in front of Postgres to start one of them on, which
 * the test freezes or cuts (the caller closes it).
 */
export async function ownQueueWithProxiedDatabase() {
  const sandbox = await sharedSandbox();
  const taskQueue = `reliability-${randomUUID()}`;
  const api = await anotherApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  const database = new URL(process.env.DATABASE_URL!);
  const proxy = await TcpProxy.start({ host: database.hostname, port: Number(database.port) });
  const proxied = new URL(database);
  proxied.port = String(proxy.port);
  const workerEnv = {
    ESIGN_URL: sandbox.esignUrl, PIX_URL: sandbox.pixUrl, TEMPORAL_TASK_QUEUE: taskQueue, DATABASE_URL: process.env.DATABASE_URL!,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!, PUBLIC_URL: api.url, LOG_LEVEL: 'error', SERVICE_ENV: 'dev',
  };
  return { client: new ApiClient(api.url), proxy, workerEnv, proxiedDatabaseUrl: proxied.toString() };
}
