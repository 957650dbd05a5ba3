import { Router } from 'express';
import type { Knex } from 'knex';
import { ApiPixClient, readPixNotification } from '../../providers/api-pix-client';
import { PixCollectionError } from '../../providers/provider-errors';
import type { Config } from '../../platform/config/config';
import { PixChargesRepository } from '../../db/repositories/pix-charges';
import { OperationsRepository } from '../../db/repositories/operations';
import { Conflict, NotAuthenticated, NotFound, ProviderFailed } from '../../domain/errors';
import { positiveAmount } from '../payables/inputs';
import { auditedRequest } from '../audit/audit-trail';
import type { Logger } from '../../platform/logger';
import type { TemporalHandle } from '../temporal/client';
import { handle, ok } from '../http/handle';
import { body, tenantOf } from '../http/request-helpers';
import { forgetCallbackSignature, recordCallbackSignature } from '../../db/repositories/callback-signatures';
import { operationClockTime } from '../../db/repositories/test-clocks';
import { reconcileWithinBudget } from './reconcile';
import { answerSweep, sweepCollection } from './sweep';
import { withPsp } from './psp-failure';

/**
 * Collecting titles by PIX: the PSP's webhook, the sweep (the scheduler's signed call
 * and staff's), and the sandbox's payer paying a title's charge.
 */
export function collectionRoutes(deps: { db: Knex; temporal: TemporalHandle; config: Config; now: () => Date; logger: Logger }): Router {
  const router = Router();
  const { collection, providers } = deps.config;
  const psp = new ApiPixClient({ ...collection, timeoutMs: providers.timeoutMs });
  const ctx = { db: deps.db, temporal: deps.temporal, psp, logger: deps.logger };

  const window = { hours: collection.sweepWindowHours, budgetMs: deps.config.db.failFastMs };

  router.post('/v1/internal/pix-collection/pix', handle(async (req, uow) => {
    if (!req.providerCallback) throw new NotAuthenticated('callback_signature_missing');
    const { provider, signature } = req.providerCallback;
    const first = await recordCallbackSignature(uow.db, provider, signature, deps.now());
    // Not a hint like the other callbacks: every PIX is applied now; a repeat (signed afresh) changes nothing.
    try {
      if (first) for (const pix of readPixNotification(body<'pixCollectionCallback'>(req))) await withPsp(() => reconcileWithinBudget(ctx, pix, 'webhook', window.budgetMs));
    } catch (err) {
      await forgetCallbackSignature(uow.db, provider, signature);
      throw err;
    }
    return { status: 200, body: { accepted: true } };
  }));

  router.post('/v1/internal/pix-collection/sweep', handle(async (req) => {
    if (!req.providerCallback) throw new NotAuthenticated('callback_signature_missing');
    return ok(answerSweep(await sweepCollection(ctx, window, deps.now())));
  }));

  // Each PIX the sweep applies carries the staff's request: its row commits with that payment.
  router.post('/v1/backoffice/collection/sweep', handle(async (req) => ok(answerSweep(
    await sweepCollection(ctx, window, deps.now(), auditedRequest(req, 'collection.sweep')),
  ))));

  router.post('/v1/sandbox/titles/:id/pix', handle(async (req, uow) => {
    // The document has checked `webhook` against its enum; the amount is checked before anything is read.
    const sent = body<'simulateTitlePix'>(req);
    const amount = sent?.amount === undefined || sent.amount === null ? null : positiveAmount(sent.amount, 'amount').toString();
    const title = await new OperationsRepository(uow.db, tenantOf(req)).titleById(String(req.params.id));
    if (!title) throw new NotFound('title_not_found');
    const charge = await new PixChargesRepository(uow.db).ofTitle(title.id);
    if (!charge) throw new Conflict({ code: 'title_has_no_pix_charge', message: 'The title has no PIX charge: its operation is not PAID, or its originator collects no PIX' });
    // On a test clock the payer pays at the clock's time, so the PSP judges lateness and expiry as the operation lives them; else the PSP's now.
    const paidAt = await operationClockTime(uow.db, title.operationId);
    try {
      const pix = await psp.simulatePayment(charge.txid, amount, sent?.webhook ?? 'once', paidAt);
      return { status: 202, body: { end_to_end_id: pix.endToEndId, txid: pix.txid, amount_brl: pix.amount, paid_at: pix.paidAt } };
    } catch (err) {
      if (!(err instanceof PixCollectionError)) throw err;
      if (err.code === 'pix_collection_refused') throw new Conflict({ code: 'pix_charge_not_active', message: 'The title\'s PIX charge is no longer payable (paid, removed or expired)' });
      throw new ProviderFailed('pix_collection_unavailable');
    }
  }));
  return router;
}
