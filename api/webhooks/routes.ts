import { Router, Request } from 'express';
import { created, handle, noContent, ok } from '../http/handle';
import type { UnitOfWork } from '../http/context';
import { body, page, tenantOf } from '../http/request-helpers';
import type { Schema } from '../openapi/contract-types';
import { presentDelivery, presentRecovery, presentWebhook, presentWebhookWithSecret } from './presenter';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, WebhookService, WebhookServiceDeps } from './webhook-service';

export function webhookRoutes(deps: WebhookServiceDeps): Router {
  const router = Router();
  const service = (req: Request, uow: UnitOfWork) => new WebhookService(deps, uow.db, tenantOf(req));
  const webhookId = (req: Request) => String(req.params.webhook_id);

  router.post('/v1/webhooks', handle(async (req, uow) => {
    const { url, events, description, max_per_second: maxPerSecond } = body<'createWebhook'>(req);
    return created(presentWebhookWithSecret(await service(req, uow).register({ url, events, description: description ?? null, maxPerSecond })));
  }));

  router.get('/v1/webhooks', handle(async (req, uow) => {
    const { items, total } = await service(req, uow).list(page(req));
    return ok({ items: items.map(presentWebhook), total, ...page(req) });
  }));

  router.delete('/v1/webhooks/:webhook_id', handle(async (req, uow) => {
    await service(req, uow).delete(webhookId(req));
    return noContent();
  }));

  router.get('/v1/webhooks/:webhook_id/deliveries', handle(async (req, uow) => {
    const operationId = typeof req.query.operation_id === 'string' ? req.query.operation_id : null;
    const { items, total } = await service(req, uow).deliveriesOf(webhookId(req), page(req), operationId);
    return ok({ items: items.map(presentDelivery), total, ...page(req) });
  }));

  router.post('/v1/webhooks/:webhook_id/rotate-secret', handle(async (req, uow) => {
    const overlapSeconds = body<'rotateWebhookSecret'>(req)?.previous_secret_expires_in_seconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS;
    return ok(presentWebhookWithSecret(await service(req, uow).rotateSecret(webhookId(req), overlapSeconds)));
  }));

  router.post('/v1/webhooks/:webhook_id/deliveries/:delivery_id/retry', handle(async (req, uow) => {
    const delivery = await service(req, uow).retry(webhookId(req), String(req.params.delivery_id));
    return { status: 202, body: { webhook_id: delivery.subscriptionId, delivery_id: delivery.id, event_id: delivery.eventId, status: 'accepted' } };
  }));
  router.post('/v1/webhooks/:webhook_id/recover', handle(async (req, uow) => {
    const { since, until } = body<'recoverWebhook'>(req);
    const recovery = await service(req, uow).recover(webhookId(req), { since: new Date(since), until: until ? new Date(until) : null }, deps.now());
    return { status: 202, body: presentRecovery(recovery) };
  }));

  router.get('/v1/webhooks/:webhook_id/recoveries/:recovery_id', handle(async (req, uow) =>
    ok(presentRecovery(await service(req, uow).recovery(webhookId(req), String(req.params.recovery_id))))));

  router.post('/v1/webhooks/:webhook_id/enable', handle(async (req, uow) => {
    const { subscription, recovery } = await service(req, uow).enable(webhookId(req), body<'enableWebhook'>(req)?.recover === true, deps.now());
    const enabled: Schema<'WebhookEnabled'> = { ...presentWebhook(subscription), recovery: recovery ? presentRecovery(recovery) : null };
    return ok(enabled);
  }));
  return router;
}
