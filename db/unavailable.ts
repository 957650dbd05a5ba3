/** Socket-level failures to reach the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
/** SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator intervention (shutdown, cannot connect now). */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;

/**
 * Postgres cannot be reached or cannot serve right now (a 503 is honest), as opposed to a statement
 * it refused, which is a bug or bad input and must not pass for an outage.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const { name, code, message } = (err ?? {}) as { name?: string; code?: unknown; message?: string };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string') return NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code);
  return /Connection terminated|connection timeout/i.test(message ?? '');
}
