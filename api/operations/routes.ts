import { Router } from 'express';
import type { Knex } from 'knex';
import { NotFound } from '../../domain/errors';
import { principalLabel } from '../../domain/principal';
import { OperationsRepository } from '../../db/repositories/operations';
import type { Config } from '../../platform/config/config';
import type { TemporalHandle } from '../temporal/client';
import type { ReferenceCache } from '../cache/reference-cache';
import { startEntry } from '../../activities/outbox-start';
import { created, handle, jsonPage, JsonText, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import type { RequestBody } from '../openapi/contract-types';
import { createDirectOperation } from './creation/direct';
import type { WrittenOperation } from './creation/write';
import { OperationView, presentOperation, renderOperation, renderOperationReads } from './presenter';
import { requestTime, RequestTime } from '../test-clocks/request-time';
import { cancelUpdate } from '../../workflows/operation/messages';
import { executeWorkflowUpdate, requireOperation } from '../temporal/workflow-calls';
import type { CreationLookups } from './creation/lookups';
import type { CreationNfeXml } from './creation/nfe-xml';

export interface OperationRouteDeps {
  db: Knex;
  temporal: TemporalHandle;
  config: Config;
  now: () => Date;
  /** Creation's check of each NF-e at SEFAZ (providers/sefaz `sefazAtCreation`) and lookup at the escriturador, each with its budget. */
  lookups: CreationLookups;
  /** Creation's proof of each NF-e sent with its XML: the trusted roots and the ring that seals the XML. */
  nfeXml: CreationNfeXml;
}

type CreationId = 'createDirectOperation' | 'requestStockAnticipation';
type Create<Op extends CreationId> = (trx: Knex, originatorId: string, environment: string, body: RequestBody<Op>, at: RequestTime, lookups: CreationLookups, nfeXml: CreationNfeXml) => Promise<WrittenOperation>;

/**
 * A creation route: create in the request's transaction, start the workflow once it has committed
 * (the worker's relay covers a crash in between), answer with the operation as `view` shows it,
 * rendered from the rows the insert returned: the same rows a read-back would find, without two
 * more round trips while the exposure counters are locked.
 */
export function creationHandler<Op extends CreationId>(deps: OperationRouteDeps, operationId: Op, create: Create<Op>, view: OperationView) {
  return handle(async (req, uow) => {
    const sent = body<typeof operationId>(req);
    const at = await requestTime(uow.db, tenantOf(req), sent.test_clock_id, deps.now());
    const written = await create(uow.db, tenantOf(req), deps.config.serviceEnv, sent, at, deps.lookups, deps.nfeXml);
    uow.afterCommit(() => startEntry(deps.db, deps.temporal.client, deps.temporal.taskQueue, written.outbox));
    return created(presentOperation(written.operation, written.titles, view));
  });
}

/** The integrator's operation routes: direct creation, the reads, and cancellation. */
export function operationRoutes(deps: OperationRouteDeps & { cache: ReferenceCache }): Router {
  const router = Router();

  router.post('/v1/operations/direct', creationHandler(deps, 'createDirectOperation', createDirectOperation, 'direct_creation'));

  router.get('/v1/operations', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const { limit, offset } = page(req);
    const { ids, total } = await new OperationsRepository(uow.db, originatorId).pageIds(limit, offset, req.query.lifecycle_status as string | undefined);
    const items = await deps.cache.operationReads(originatorId, ids, (missing) => renderOperationReads(uow.db, originatorId, missing));
    return ok(jsonPage(items, { total, limit, offset }));
  }));

  router.get('/v1/operations/:id', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const id = String(req.params.id);
    return ok(new JsonText([await deps.cache.operationRead(originatorId, id, async () => {
      const json = (await renderOperationReads(uow.db, originatorId, [id])).get(id);
      if (json === undefined) throw new NotFound('operation_not_found');
      return json;
    })]));
  }));

  router.post('/v1/operations/:id/cancel', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const workflowId = await requireOperation(uow.db, originatorId, String(req.params.id), 'operation_not_found');
    const requestedBy = principalLabel(req.ctx.principal!);
    await executeWorkflowUpdate(deps, workflowId, 'operation_cannot_be_cancelled', cancelUpdate, { requestedBy, reason: body<'cancelOperation'>(req)?.reason ?? null });
    return ok(await renderOperation(deps.db, originatorId, String(req.params.id), 'read'));
  }));

  return router;
}
