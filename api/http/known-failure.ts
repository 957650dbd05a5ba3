import { AppError, Unavailable } from '../../domain/errors';
import { isDatabaseUnavailable, isLockTimeout } from '../../db/unavailable';
import { isTemporalUnavailable } from '../temporal/client';

/**
 * A failure the contract has an answer for: one of our errors, or a dependency that did not answer
 * in time (with the warning to log, since it is no bug). Null for anything else: a bug, a 500.
 */
export function knownFailure(err: unknown): { error: AppError; warning?: string } | null {
  // Postgres is up; a row this request needs stayed locked by another for longer than its budget.
  if (isLockTimeout(err)) return { error: new Unavailable('database_lock_timeout'), warning: 'database lock wait timed out' };
  // Postgres down, frozen or the pool exhausted: retryable, not a bug.
  if (isDatabaseUnavailable(err)) return { error: new Unavailable('database_unavailable'), warning: 'database unavailable' };
  if (isTemporalUnavailable(err)) return { error: new Unavailable('workflow_unavailable'), warning: 'temporal unavailable' };
  if (err instanceof AppError) return { error: err };
  return null;
}
