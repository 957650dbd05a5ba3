import type { Knex } from 'knex';
import { eventId } from '../domain/events';
import { testClockWorkflowId } from '../domain/workflow-ids';
import { recordEvent } from '../db/repositories/events';
import { TestClockMovesRepository } from '../db/repositories/test-clocks';
import { AuditEventsRepository } from '../db/repositories/audit-events';
import type { AuditedRequest } from '../domain/audit-chain';

/** The test clock workflow's writes, each idempotent: a retry finds the row already moved. */
export function createTestClockActivities({ db }: { db: Knex }) {
  return {
    /** Advancing to `frozenTime`, with staff's audit row when staff asked; a retry after the commit finds the row moved and writes nothing. */
    async recordClockAdvancing({ clockId, frozenTime, audit }: { clockId: string; frozenTime: string; audit?: AuditedRequest }): Promise<void> {
      await db.transaction(async (trx) => {
        const before = await new TestClockMovesRepository(trx).advancing(clockId, new Date(frozenTime));
        if (before && audit) {
          await new AuditEventsRepository(trx).appendFor(audit, {
            target: { type: 'test_clock', id: clockId }, before: { frozen_time: before.frozenTime.toISOString() }, after: { frozen_time: new Date(frozenTime).toISOString() },
          });
        }
      });
    },

    /** Ready again, with `test_clock.ready` (one per advance, named by the time it reached). */
    async recordClockReady({ clockId, frozenTime }: { clockId: string; frozenTime: string }): Promise<void> {
      await db.transaction(async (trx) => {
        const clock = await new TestClockMovesRepository(trx).ready(clockId, new Date(frozenTime));
        if (!clock) return;
        await recordEvent(trx, {
          eventId: eventId(testClockWorkflowId(clockId), 'test_clock.ready', frozenTime), originatorId: clock.originatorId, eventType: 'test_clock.ready',
          // The clock's time, like every event of its operations: a list newest first never mixes the two.
          occurredAt: new Date(frozenTime),
          data: { test_clock_id: clock.id, originator_id: clock.originatorId, name: clock.name, frozen_time: clock.frozenTime.toISOString(), status: 'ready' },
        });
      });
    },

    /** Thirty days after creation the clock deletes itself. */
    async expireClock({ clockId }: { clockId: string }): Promise<void> {
      await new TestClockMovesRepository(db).expire(clockId);
    },
  };
}
