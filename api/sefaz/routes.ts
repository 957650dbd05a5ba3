import { Router } from 'express';
import type { Config } from '../../platform/config/config';
import { SefazSandboxControls } from '../../providers/sefaz/sandbox-controls';
import { SefazError } from '../../providers/provider-errors';
import { ProviderFailed } from '../../domain/errors';
import { checkNfeKey, normaliseNfeKey } from '../../domain/nfe-key';
import { handle, ok } from '../http/handle';
import { answeringProviderFailure } from '../http/provider-failure';
import { body } from '../http/request-helpers';

const withSandbox = <T>(work: () => Promise<T>): Promise<T> => answeringProviderFailure(SefazError, () => new ProviderFailed('sefaz_unavailable'), work);

/** The sandbox SEFAZ's controls for integrators; production's document lacks them, hence 404 there. */
export function sefazRoutes(deps: { config: Config }): Router {
  const router = Router();
  const controls = new SefazSandboxControls(deps.config.sefaz.sandboxUrl, deps.config.sefaz.timeoutMs);

  router.post('/v1/sandbox/nfe/:nfe_key', handle(async (req) => {
    const key = normaliseNfeKey(String(req.params.nfe_key));
    checkNfeKey({ externalId: key, loc: ['path'], key }, null);
    const sent = body<'setSandboxNfe'>(req);
    const payerEvent = sent.payer_event ?? null;
    const issuerCertificate = sent.issuer_certificate ?? 'delegated';
    await withSandbox(() => controls.setKey(key, sent.status, payerEvent, issuerCertificate));
    return ok({ nfe_key: key, status: sent.status, payer_event: payerEvent, issuer_certificate: issuerCertificate });
  }));

  router.post('/v1/sandbox/sefaz/outage', handle(async (req) => {
    const until = await withSandbox(() => controls.outage(body<'startSandboxSefazOutage'>(req).seconds));
    return ok({ until });
  }));
  return router;
}
