import { Router } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../../platform/config/config';
import type { Logger } from '../../platform/logger';
import { EscrituradorSandboxControls } from '../../providers/escriturador/sandbox-controls';
import { readEscrituradorEvent } from '../../providers/escriturador/client';
import { RegistrarError } from '../../providers/provider-errors';
import { Conflict, NotAuthenticated, NotFound, ProviderFailed, RuleViolation, Unavailable } from '../../domain/errors';
import { ESCRITURADOR_EVENT_TYPES } from '../../domain/escriturador/port';
import { parseDocument } from '../../domain/documents';
import { checkNfeKey, normaliseNfeKey } from '../../domain/nfe-key';
import { handle, ok } from '../http/handle';
import { answeringProviderFailure } from '../http/provider-failure';
import { body, tenantOf } from '../http/request-helpers';
import { positiveAmount } from '../payables/inputs';
import type { TemporalHandle } from '../temporal/client';
import { handleRegistrarEvent } from './webhook-events';
import { registrationReconciler } from '../../activities/registration-reconciliation';
import { HttpEscriturador } from '../../providers/escriturador/client';
import type { AuditTrail } from '../audit/audit-trail';

const withSandbox = <T>(work: () => Promise<T>): Promise<T> => answeringProviderFailure(RegistrarError, () => new ProviderFailed('registrar_unavailable'), work);

function nfeKeyOf(sent: string): string {
  const key = normaliseNfeKey(sent);
  checkNfeKey({ externalId: key, loc: ['body'], key }, null);
  return key;
}

/**
 * The escriturador's signed webhook (acts and settlements), and the sandbox escriturador's controls
 * for integrators; production's document lacks the controls, hence 404 there.
 */
export function registrarRoutes(deps: { db: Knex; temporal: TemporalHandle; config: Config; logger: Logger; audit: AuditTrail; now: () => Date }): Router {
  const router = Router();
  const controls = new EscrituradorSandboxControls(deps.config.registrar);
  const reconcile = registrationReconciler({ db: deps.db, escriturador: new HttpEscriturador(deps.config.registrar) });

  router.post('/v1/internal/registrar/callback', handle(async (req) => {
    // api/middleware/provider-signature.ts verified it; a pipeline that skipped the check is refused.
    if (!req.providerCallback) throw new NotAuthenticated('callback_signature_missing');
    const sent = body<'registrarCallback'>(req);
    // A type published for others (or added later) is acknowledged, or the escriturador would retry it for ever.
    if (!(ESCRITURADOR_EVENT_TYPES as readonly string[]).includes(sent.evento)) return ok({ accepted: true, outcome: 'ignored' });
    const event = readEscrituradorEvent(sent);
    if (!event) throw new RuleViolation({ code: 'registrar_event_unreadable', message: `A ${sent.evento} event without the fields it carries` });
    return ok({ accepted: true, outcome: await handleRegistrarEvent(deps, event) });
  }));

  // The escriturador unreachable: 503, nothing reported; the caller tries again.
  const reconcileNow = async (originatorId?: string) => {
    const found = await answeringProviderFailure(RegistrarError, () => new Unavailable('registrar_unavailable'), () => reconcile(deps.now(), originatorId));
    return { checked: found.checked, mismatches: found.mismatches.map((m) => ({ title_id: m.titleId, duplicata_id: m.duplicataId, act_id: m.actId, kind: m.kind })) };
  };

  router.post('/v1/backoffice/registrations/reconcile', handle(async (req, uow) => {
    const found = await reconcileNow();
    await deps.audit.record(req, { action: 'registration.reconcile', after: { checked: found.checked, mismatches: found.mismatches.length } }, uow.db);
    return ok(found);
  }));

  router.post('/v1/sandbox/registrar/reconcile', handle(async (req) => ok(await reconcileNow(tenantOf(req)))));

  router.post('/v1/sandbox/registrar/transfers', handle(async (req) => {
    const sent = body<'transferSandboxDuplicatas'>(req);
    const key = nfeKeyOf(sent.nfe_key);
    const holder = parseDocument(sent.holder_document, ['body', 'holder_document'], ['cnpj']).value;
    const duplicatas = await withSandbox(() => controls.transferAway(key, holder));
    return ok({
      nfe_key: key,
      duplicatas: duplicatas.map((d) => ({ duplicata_id: d.duplicataId, installment: d.installment, holder_document: d.holderDocument })),
    });
  }));

  router.post('/v1/sandbox/registrar/settlements', handle(async (req) => {
    const sent = body<'settleSandboxDuplicata'>(req);
    const key = nfeKeyOf(sent.nfe_key);
    const amount = positiveAmount(sent.amount, 'amount').toString();
    const duplicata = await withSandbox(() => controls.payerPays(key, sent.installment ?? null, amount).catch((err: unknown) => {
      if (!(err instanceof RegistrarError)) throw err;
      if (err.refusalCode === 'duplicata_not_found') throw new NotFound('duplicata_not_found');
      if (err.refusalCode === 'duplicata_settled') throw new Conflict({ code: 'duplicata_settled', message: 'The installment is paid in full at the escriturador already' });
      throw err;
    }));
    return {
      status: 202,
      body: { nfe_key: key, duplicata_id: duplicata.duplicataId, installment: duplicata.installment, paid_amount: duplicata.paidAmount, settled: duplicata.settled },
    };
  }));

  router.post('/v1/sandbox/registrar/outage', handle(async (req) => {
    const until = await withSandbox(() => controls.outage(body<'startSandboxRegistrarOutage'>(req).seconds));
    return ok({ until });
  }));
  return router;
}
