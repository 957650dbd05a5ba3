import type { Knex } from 'knex';
import type { Config } from '../api/config';
import type { Logger } from '../api/logger';

export interface ActivityDeps {
  db: Knex;
  config: Config;
  logger: Logger;
}

/** Every activity the worker registers, each group built by its factory from the shared deps. */
export function createActivities(_deps: ActivityDeps): Record<string, (...args: never[]) => Promise<unknown>> {
  return {};
}
