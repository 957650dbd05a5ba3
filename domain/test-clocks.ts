import { RuleViolation } from './errors';

/** A test clock deletes itself this long after its creation. */
export const TEST_CLOCK_LIFETIME_DAYS = 30;
/** The furthest one advance may move a clock: two years (730 days). */
export const MAX_ADVANCE_DAYS = 730;
const DAY_MS = 86_400_000;

export type TestClockStatus = 'ready' | 'advancing';

export const deletesAfter = (createdAt: Date): Date => new Date(createdAt.getTime() + TEST_CLOCK_LIFETIME_DAYS * DAY_MS);

/** A new clock starts within this many days of now, either side: a clock in 1970 or 9999 would skew its tenant's event feed. */
export const START_WINDOW_DAYS = 730;

/** The refusal of a new clock's starting time outside the window around `now`; null when it may start there. */
export function startRefusal(frozenTime: Date, now: Date): RuleViolation | null {
  if (Math.abs(frozenTime.getTime() - now.getTime()) <= START_WINDOW_DAYS * DAY_MS) return null;
  return new RuleViolation({
    code: 'test_clock_time_out_of_range', message: `frozen_time must be within ${START_WINDOW_DAYS} days (two years) of now`,
    earliest: new Date(now.getTime() - START_WINDOW_DAYS * DAY_MS).toISOString(), latest: new Date(now.getTime() + START_WINDOW_DAYS * DAY_MS).toISOString(),
  });
}

/** Why a clock at `current` may not advance to `to`; null when it may. */
export function advanceRefusal(current: string, to: string): { code: string; message: string } | null {
  const step = Date.parse(to) - Date.parse(current);
  if (step <= 0) return { code: 'test_clock_time_not_forward', message: `frozen_time must be after the clock's time (${current})` };
  if (step > MAX_ADVANCE_DAYS * DAY_MS) return { code: 'test_clock_advance_too_far', message: `One advance moves a clock at most ${MAX_ADVANCE_DAYS} days` };
  return null;
}

/** The refusal of a `test_clock_id` that names no live clock of the caller's (or any `test_clock_id` in production). */
export const clockNotFound = (id: string): RuleViolation =>
  new RuleViolation({ code: 'test_clock_not_found', message: `No test clock ${id} for this originator in this environment`, test_clock_id: id });
