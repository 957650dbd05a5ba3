import { Router } from 'express';
import { handle, jsonPage, JsonText, ok } from '../http/handle';
import type { ReferenceCache } from '../cache/reference-cache';
import { tenantOf } from '../http/request-helpers';
import { eventEnvelope as domainEnvelope, StoredEvent } from '../../domain/events';
import type { Schema } from '../openapi/contract-types';
import { NotFound, RuleViolation } from '../../domain/errors';
import { keptSince } from '../../domain/event-retention';
import { EventLogRepository } from '../../db/repositories/event-log';
import { eventCursorOf, eventFilterOf, eventLimitOf } from './event-query';

/** The envelope the webhooks carried, checked against the document's Event: domain/ cannot import its types. */
const eventEnvelope: (event: StoredEvent) => Schema<'Event'> = domainEnvelope;

/** The originator's events of the last 30 days: what its webhooks carried, to pull. */
export function eventRoutes(now: () => Date, cache: ReferenceCache): Router {
  const router = Router();

  router.get('/v1/events', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const limit = eventLimitOf(req);
    const events = new EventLogRepository(uow.db, originatorId);
    const page = await events.pageIds(eventFilterOf(req, keptSince(now())), eventCursorOf(req), limit);
    if (!page) throw new RuleViolation({ code: 'event_cursor_not_found', message: 'The cursor names no event of the last 30 days' });
    const fields = { has_more: page.hasMore, limit };
    const body = await cache.eventPage(originatorId, `${limit}${page.older ? '<' : '>'}`, page.listed, async () => {
      const items = await cache.eventEnvelopes(originatorId, page.ids(), async (missing) =>
        new Map((await events.byIds(missing)).map((event) => [event.eventId, Buffer.from(JSON.stringify(eventEnvelope(event)))])));
      const { chunks, length } = jsonPage(items, fields);
      return Buffer.concat(chunks, length);
    });
    return ok(new JsonText([body]));
  }));

  router.get('/v1/events/:event_id', handle(async (req, uow) => {
    const event = await new EventLogRepository(uow.db, tenantOf(req)).find(String(req.params.event_id), keptSince(now()));
    if (!event) throw new NotFound('event_not_found');
    return ok(eventEnvelope(event));
  }));
  return router;
}
