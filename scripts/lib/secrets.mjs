import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The secrets the services refuse to start without (payload key ring, provider callback secrets),
 * for local runs only: fresh ones for a test run, or ones kept under .data/ by `npm run dev` so
 * the histories and webhook secrets of earlier runs still open. A value already in the
 * environment wins.
 */
function fresh() {
  return {
    PAYLOAD_KEYS: `local1:${randomBytes(32).toString('base64')}`,
    ESIGN_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
    PIX_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
    PIX_COLLECTION_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
    REGISTRAR_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
  };
}

function fromEnvironment(values, env) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, env[name] || value]));
}

export function ephemeralSecrets(env = process.env) {
  return fromEnvironment(fresh(), env);
}

export function keptSecrets(file, env = process.env) {
  const earlier = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // A file kept before a secret existed gets it added once, and keeps it from then on.
  const kept = { ...fresh(), ...earlier };
  if (Object.keys(kept).some((name) => !(name in earlier))) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
  }
  return fromEnvironment(kept, env);
}
