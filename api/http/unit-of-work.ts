import type { Knex } from 'knex';
import type { Logger } from 'winston';
import { requestAgeMs } from '../../db/request-budget';
import type { Executor, Reply, UnitOfWork, Work } from './context';

/**
 * Every request is answered within 2 s whatever Postgres or Temporal do. After-commit work (a
 * workflow start) gets what is left of 1.5 s since the request began, and what it could not do
 * in that time is the outbox relay's: a Temporal server stalled on a frozen Postgres must not
 * hold a reply whose own database waits already spent most of the 2 s.
 */
const REPLY_DEADLINE_MS = 1_500;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs after-commit tasks; their failures are logged, never turned into the reply (the outbox covers them). */
export async function runAfterCommit(tasks: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const task of tasks) {
    const leftMs = Math.floor(REPLY_DEADLINE_MS - (requestAgeMs() ?? 0));
    try {
      if (leftMs <= 0) throw new Error('no time left before the reply deadline');
      await within(task(), leftMs);
    } catch (err) {
      logger.warn('after-commit task failed', { err: (err as Error).message });
    }
  }
}

/** Mutations run in one transaction; reads use the pool directly. */
export function defaultExecutor(db: Knex, mutating: boolean, logger: Logger): Executor {
  return async (work: Work): Promise<Reply> => {
    const tasks: (() => Promise<void>)[] = [];
    const reply = mutating
      ? await db.transaction((trx) => work({ db: trx, afterCommit: (t) => tasks.push(t) }))
      : await work({ db, afterCommit: (t) => tasks.push(t) } satisfies UnitOfWork);
    await runAfterCommit(tasks, logger);
    return reply;
  };
}
