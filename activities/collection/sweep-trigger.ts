import type { Config } from '../../platform/config/config';
import { providerSignatureHeaders } from '../../domain/provider-signature';

/**
 * The hourly sweep (the `pix-collection-sweep` Temporal Schedule) asks the api to run it: the api
 * owns reconciliation (its workflow updates, deadlines and refusals), the schedule only its timing.
 * The call is signed like the PSP's webhook, with the collection secret.
 */
export function createCollectionSweepActivities({ config }: { config: Pick<Config, 'collection' | 'http' | 'providers'> }) {
  return {
    async triggerCollectionSweep(): Promise<number> {
      const secret = config.collection.callbackSecret;
      if (secret === null) return 0;
      const response = await fetch(`${config.http.publicUrl}/v1/internal/pix-collection/sweep`, {
        method: 'POST',
        headers: providerSignatureHeaders(secret, '', Math.floor(Date.now() / 1000)),
        // The sweep lists the PSP and may wait on several workflow updates.
        signal: AbortSignal.timeout(config.providers.timeoutMs * 6),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`the api answered the collection sweep ${response.status}: ${text.slice(0, 200)}`);
      return (JSON.parse(text) as { applied: unknown[] }).applied.length;
    },
  };
}
