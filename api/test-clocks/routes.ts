import { Router } from 'express';
import type { Knex } from 'knex';
import { NotFound } from '../../domain/errors';
import { startRefusal } from '../../domain/test-clocks';
import { testClockWorkflowId } from '../../domain/workflow-ids';
import { clockOwner, TestClockRow, TestClocksRepository } from '../../db/repositories/test-clocks';
import { auditedRequest } from '../audit/audit-trail';
import type { AuditedRequest } from '../../domain/audit-chain';
import { enqueueWorkflow } from '../../db/workflow-outbox';
import { startEntry } from '../../activities/outbox-start';
import { advanceClockUpdate, deleteClockSignal, TestClockWorkflowInput } from '../../workflows/test-clock-messages';
import type { Config } from '../../platform/config/config';
import type { TemporalHandle } from '../temporal/client';
import { created, handle, noContent, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import type { RequestBody, Schema } from '../openapi/contract-types';
import { executeWorkflowUpdate, signalWorkflow } from '../temporal/workflow-calls';

export interface TestClockRouteDeps {
  db: Knex;
  temporal: TemporalHandle;
  config: Config;
  now: () => Date;
}

export function presentTestClock(clock: TestClockRow): Schema<'TestClock'> {
  return {
    id: clock.id, name: clock.name, frozen_time: clock.frozenTime.toISOString(), status: clock.status,
    created_at: clock.createdAt.toISOString(), deletes_after: clock.deletesAfter.toISOString(),
  };
}

async function liveClock(db: Knex, originatorId: string, id: string): Promise<TestClockRow> {
  const clock = await new TestClocksRepository(db, originatorId).byId(id);
  if (!clock) throw new NotFound('test_clock_not_found');
  return clock;
}

/**
 * Sandbox test clocks. The clock's workflow (workflows/test-clock.ts) owns its time
 * and status: an advance is its update, whose validator refuses what may not happen; the row is
 * what reads show. Production's document lacks these paths, so they are 404 there.
 */
export function testClockRoutes(deps: TestClockRouteDeps): Router {
  const router = Router();

  router.post('/v1/test-clocks', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const now = deps.now();
    const sent = body<'createTestClock'>(req);
    const frozenTime = sent?.frozen_time ? new Date(sent.frozen_time) : now;
    const refusal = startRefusal(frozenTime, now);
    if (refusal) throw refusal;
    const clock = await new TestClocksRepository(uow.db, originatorId).create({ name: sent?.name ?? null, frozenTime }, now);
    const input: TestClockWorkflowInput = {
      clockId: clock.id, originatorId, frozenTime: clock.frozenTime.toISOString(), deletesAfter: clock.deletesAfter.toISOString(),
    };
    const entry = await enqueueWorkflow(uow.db, {
      originatorId, workflowType: 'testClockWorkflow', workflowId: testClockWorkflowId(clock.id), args: [input],
      // The search attributes every workflow of ours carries; a clock has no lifecycle nor display number of its own.
      searchAttributes: { originatorId, lifecycleStatus: 'TEST_CLOCK', displayNumber: clock.id, environment: deps.config.serviceEnv },
    });
    uow.afterCommit(() => startEntry(deps.db, deps.temporal.client, deps.temporal.taskQueue, entry));
    return created(presentTestClock(clock));
  }));

  router.get('/v1/test-clocks', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const { items, total } = await new TestClocksRepository(uow.db, tenantOf(req)).list(limit, offset);
    return ok({ items: items.map(presentTestClock), total, limit, offset });
  }));

  router.get('/v1/test-clocks/:id', handle(async (req, uow) => ok(presentTestClock(await liveClock(uow.db, tenantOf(req), String(req.params.id))))));

  router.delete('/v1/test-clocks/:id', handle(async (req, uow) => {
    const id = String(req.params.id);
    if (!(await new TestClocksRepository(uow.db, tenantOf(req)).delete(id))) throw new NotFound('test_clock_not_found');
    uow.afterCommit(async () => { await signalWorkflow(deps, testClockWorkflowId(id), deleteClockSignal.name); });
    return noContent();
  }));

  /** The clock's workflow decides; the row it wrote before answering is read outside the request's snapshot. */
  const advance = async (originatorId: string, id: string, sent: RequestBody<'advanceTestClock'>, audit?: AuditedRequest) => {
    const frozenTime = new Date(sent.frozen_time).toISOString();
    await executeWorkflowUpdate({ db: deps.db, temporal: deps.temporal }, testClockWorkflowId(id), 'test_clock_not_found', advanceClockUpdate, { frozenTime, audit });
    return presentTestClock(await liveClock(deps.db, originatorId, id));
  };

  router.post('/v1/test-clocks/:id/advance', handle(async (req, uow) => {
    const id = String(req.params.id);
    await liveClock(uow.db, tenantOf(req), id);
    return ok(await advance(tenantOf(req), id, body<'advanceTestClock'>(req)));
  }));

  // The console's operation page advances the clock of a sandbox operation it shows (any originator's).
  router.post('/v1/backoffice/test-clocks/:id/advance', handle(async (req, uow) => {
    const id = String(req.params.id);
    const owner = await clockOwner(uow.db, id);
    if (!owner) throw new NotFound('test_clock_not_found');
    const sent = body<'backofficeAdvanceTestClock'>(req);
    // The clock's workflow writes the row with the clock's move, in one transaction.
    return ok(await advance(owner, id, sent, auditedRequest(req, 'test_clock.advance', sent)));
  }));

  return router;
}
