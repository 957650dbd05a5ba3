import type { Knex } from 'knex';
import type { Logger } from 'winston';
import type { Executor, Reply, UnitOfWork, Work } from './context';

/** A slow dependency may delay a reply by this much at most; what it had to do is left to the outbox. */
const AFTER_COMMIT_BUDGET_MS = 3_000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs after-commit tasks; their failures are logged, never turned into the reply (the outbox covers them). */
export async function runAfterCommit(tasks: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const task of tasks) {
    try {
      await within(task(), AFTER_COMMIT_BUDGET_MS);
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
