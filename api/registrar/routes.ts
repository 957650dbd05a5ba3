import { Router } from 'express';
import type { Config } from '../../platform/config/config';
import { EscrituradorSandboxControls } from '../../providers/escriturador/sandbox-controls';
import { RegistrarError } from '../../providers/provider-errors';
import { ProviderFailed } from '../../domain/errors';
import { parseDocument } from '../../domain/documents';
import { checkNfeKey, normaliseNfeKey } from '../../domain/nfe-key';
import { handle, ok } from '../http/handle';
import { answeringProviderFailure } from '../http/provider-failure';
import { body } from '../http/request-helpers';

const withSandbox = <T>(work: () => Promise<T>): Promise<T> => answeringProviderFailure(RegistrarError, () => new ProviderFailed('registrar_unavailable'), work);

/** The sandbox escriturador's controls for integrators; production's document lacks them, hence 404 there. */
export function registrarRoutes(deps: { config: Config }): Router {
  const router = Router();
  const controls = new EscrituradorSandboxControls(deps.config.registrar);

  router.post('/v1/sandbox/registrar/transfers', handle(async (req) => {
    const sent = body<'transferSandboxDuplicatas'>(req);
    const key = normaliseNfeKey(sent.nfe_key);
    checkNfeKey({ externalId: key, loc: ['body'], key }, null);
    const holder = parseDocument(sent.holder_document, ['body', 'holder_document'], ['cnpj']).value;
    const duplicatas = await withSandbox(() => controls.transferAway(key, holder));
    return ok({
      nfe_key: key,
      duplicatas: duplicatas.map((d) => ({ duplicata_id: d.duplicataId, installment: d.installment, holder_document: d.holderDocument })),
    });
  }));

  router.post('/v1/sandbox/registrar/outage', handle(async (req) => {
    const until = await withSandbox(() => controls.outage(body<'startSandboxRegistrarOutage'>(req).seconds));
    return ok({ until });
  }));
  return router;
}
