import { BUDGET_SPENT } from './request-budget';

/** Socket-level failures to reach the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
/** SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator intervention (shutdown, cannot connect now). */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;
/** What pg and knex say, without a code, when a connection could not be made, was lost, or our own fail-fast bound ran out. */
const UNAVAILABLE_MESSAGES = [
  BUDGET_SPENT,
  'Query read timeout', 'Connection terminated', 'connection timeout', 'timeout exceeded when trying to connect',
  'Client has encountered a connection error', 'Knex: Timeout acquiring a connection', 'timeout expired',
];

/**
 * Postgres cannot be reached or cannot serve right now (a 503 is honest), as opposed to a statement
 * it refused, which is a bug or bad input and must not pass for an outage.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const { name, code, message } = (err ?? {}) as { name?: string; code?: unknown; message?: string };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string') return NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code);
  return UNAVAILABLE_MESSAGES.some((text) => (message ?? '').includes(text));
}

/** Postgres gave up waiting for a lock (lock_timeout): another transaction held the row for longer than the request could wait. */
export function isLockTimeout(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '55P03';
}
