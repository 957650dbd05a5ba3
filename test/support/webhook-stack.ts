import { connectTemporal, TemporalHandle } from '../../api/temporal-client';
import { anotherApi, sharedWorker, testConfig } from './stack';
import { ApiClient } from './http';
import type { TestReceiver } from './https-receiver';

/**
 * What the webhook delivery tests stand on: the shared worker (the short test schedule), an api
 * that may register the loopback receiver, and a Temporal client to read delivery workflows.
 */
export async function openWebhookTestStack(): Promise<{ client: ApiClient; temporal: TemporalHandle }> {
  await sharedWorker();
  const client = new ApiClient((await anotherApi({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).url);
  return { client, temporal: connectTemporal(testConfig().temporal, testConfig().payloadKeys) };
}

export async function closeWebhookTestStack(temporal: TemporalHandle, receivers: TestReceiver[]): Promise<void> {
  await Promise.all(receivers.map((r) => r.close()));
  await temporal.connection.close();
}
