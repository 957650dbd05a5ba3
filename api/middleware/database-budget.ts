import type { RequestHandler } from 'express';
import { withDatabaseBudget } from '../../db/request-budget';

/** Everything a request waits on Postgres, from rate limits to its own queries, shares `budgetMs`. */
export function databaseBudget(budgetMs: number): RequestHandler {
  return (_req, _res, next) => withDatabaseBudget(budgetMs, next);
}
