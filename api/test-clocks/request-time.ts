import type { Knex } from 'knex';
import { clockNotFound } from '../../domain/test-clocks';
import { TestClockRow, TestClocksRepository } from '../../db/repositories/test-clocks';
import type { OperationClockState } from '../../workflows/operation/clock';

export interface RequestTime {
  /** The request's "now": the clock's time when it names one. */
  now: Date;
  clock: TestClockRow | null;
}

/**
 * The time a pricing or creation request runs at: a named test clock's, else `now`.
 * An unknown, deleted or another originator's clock is refused before anything is read or
 * written; production has no clocks (its document has no clock routes), so any id is unknown there.
 */
export async function requestTime(db: Knex, originatorId: string, testClockId: unknown, now: Date): Promise<RequestTime> {
  if (typeof testClockId !== 'string') return { now, clock: null };
  const clock = await new TestClocksRepository(db, originatorId).byId(testClockId);
  if (!clock) throw clockNotFound(testClockId);
  return { now: clock.frozenTime, clock };
}

/** How an operation created now on `clock` starts knowing it (workflows/operation/clock.ts). */
export const operationClockAt = (clock: TestClockRow): OperationClockState => {
  const time = clock.frozenTime.toISOString();
  return { clockId: clock.id, target: time, local: time, unanswered: null, deleted: false };
};
