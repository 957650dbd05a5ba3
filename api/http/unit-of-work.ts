import type { Knex } from 'knex';
import type { Logger } from 'winston';
import type { Executor, Reply, UnitOfWork, Work } from './context';

/** Runs after-commit tasks; their failures are logged, never turned into the reply (the outbox covers them). */
export async function runAfterCommit(tasks: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const task of tasks) {
    try {
      await task();
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
