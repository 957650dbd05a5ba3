import { connectTemporal, TemporalHandle } from '../../api/temporal/client';
import { anotherApi, sharedWorker, testConfig } from './stack';
import { ApiClient } from './http';
import type { TestReceiver } from './https-receiver';

export interface WebhookTestStack {
  client: ApiClient;
  temporal: TemporalHandle;
  /** Receivers the tests started, closed with the stack. */
  receivers: TestReceiver[];
  close(): Promise<void>;
}

/**
 * What the webhook delivery tests stand on: the shared worker (the short test schedule), an api
 * that may register the loopback receiver, and a Temporal client to read delivery workflows.
 */
export async function openWebhookTestStack(): Promise<WebhookTestStack> {
  await sharedWorker();
  const client = new ApiClient((await anotherApi({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).url);
  const temporal = connectTemporal(testConfig().temporal, testConfig().payloadKeys);
  const receivers: TestReceiver[] = [];
  return {
    client, temporal, receivers,
    async close() {
      await Promise.all(receivers.map((r) => r.close()));
      await temporal.connection.close();
    },
  };
}
