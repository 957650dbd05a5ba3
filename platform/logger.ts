import { inspect } from 'node:util';
import winston from 'winston';
import { activeSpanIds } from './telemetry/span-ids';

const SECRET_KEYS = new Set([
  'client_secret', 'clientsecret', 'secret', 'password', 'access_token', 'accesstoken', 'token', 'authorization',
  'hmac_secret', 'hmacsecret', 'signer_token', 'signertoken', 'sign_url', 'signurl', 'x-client-secret', 'private_pem', 'privatekey',
  'keypem', 'key_pem',
]);
const JWT_PATTERN = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const SIGN_URL_PATTERN = /(\/sign\/)[\w-]+/g;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (typeof value === 'string') return value.replace(JWT_PATTERN, '[REDACTED]').replace(SIGN_URL_PATTERN, '$1[REDACTED]');
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_KEYS.has(key.toLowerCase()) ? '[REDACTED]' : redact(inner, depth + 1)]),
    );
  }
  return value;
}

/** Secrets are removed here, by the logger itself, so no call site can leak one by forgetting. */
const redactSecrets = winston.format((info) => {
  for (const key of Object.keys(info)) {
    info[key] = SECRET_KEYS.has(key.toLowerCase()) ? '[REDACTED]' : redact(info[key]);
  }
  return info;
});

/** A line written inside a traced request, workflow task or activity names its trace and span (unless it names them itself). */
const traceIds = winston.format((info) => {
  if (info.trace_id === undefined) Object.assign(info, activeSpanIds());
  return info;
});

export function createLogger(level: string, service: string): winston.Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(traceIds(), redactSecrets(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
}

export type Logger = winston.Logger;

/**
 * A failure as text for a process's last words: its stack, or, for what is not an Error with one
 * (the Temporal SDK's native layer gave such a failure, which printed as "undefined"), its inspection.
 */
export function failureText(err: unknown): string {
  return err instanceof Error && err.stack ? err.stack : inspect(err);
}
