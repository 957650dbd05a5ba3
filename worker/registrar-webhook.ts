import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { HttpEscriturador } from '../providers/escriturador/client';

/** Where the escriturador posts its events: the api's signed webhook route under PUBLIC_URL. */
const registrarWebhookUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/v1/internal/registrar/callback`;

/**
 * Tells the escriturador where to post its events, at each start: the URL follows PUBLIC_URL, which
 * only the deployment knows. Without REGISTRAR_CALLBACK_SECRET the api refuses every event, so
 * none is asked for. Not fatal: an escriturador down now leaves the URL it had (logged), and the
 * daily registration reconciliation finds whatever the missed events would have told.
 */
export async function registerRegistrarWebhook(config: Pick<Config, 'registrar' | 'http'>, logger: Logger): Promise<void> {
  if (config.registrar.callbackSecret === null) return;
  const url = registrarWebhookUrl(config.http.publicUrl);
  try {
    await new HttpEscriturador(config.registrar).setWebhook(url);
    logger.info('escriturador webhook registered', { url });
  } catch (err) {
    logger.warn('escriturador webhook not registered', { url, err: (err as Error).message });
  }
}
