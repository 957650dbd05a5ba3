import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One request's waits on Postgres share one budget. A per-wait bound alone is not enough: a
 * Postgres that answers slowly, or stops while a request is between two queries, lets a request
 * spend the bound on a pool acquire and again on each query after it, and the chaos run saw
 * answers of 2.3 s with a 1.5 s bound. Each wait inside `withDatabaseBudget` is bounded by what
 * is left of the request's budget, and what it took is spent, however the wait ended.
 */
interface Budget {
  leftMs: number;
  readonly startedAt: number;
}

const budgets = new AsyncLocalStorage<Budget>();

/** Runs `work` (and everything it starts) with `ms` of Postgres wait time to share. */
export function withDatabaseBudget<T>(ms: number, work: () => T): T {
  return budgets.run({ leftMs: ms, startedAt: performance.now() }, work);
}

/** How long ago the current request entered its budget; undefined outside a request. */
export function requestAgeMs(): number | undefined {
  const budget = budgets.getStore();
  return budget && performance.now() - budget.startedAt;
}

export const BUDGET_SPENT = 'database wait budget of the request spent';

/**
 * The bound of the next wait: `boundMs` outside a budgeted request, else what is left of the
 * budget (never more than `boundMs`); 0 means the budget is gone and the wait must not start.
 * `done` records what the wait took.
 */
export function nextWait(boundMs: number): { limitMs: number; done: () => void } {
  const budget = budgets.getStore();
  if (!budget) return { limitMs: boundMs, done: () => undefined };
  const started = performance.now();
  return {
    limitMs: Math.max(0, Math.min(boundMs, Math.floor(budget.leftMs))),
    done: () => { budget.leftMs -= performance.now() - started; },
  };
}
