import { createPublicKey, KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../platform/config/config';
import { createDb } from './connection';
import { verifyAuditChain } from './audit-verify';
import { KeptCheckpoint, verifyAgainstCheckpoints } from './audit-checkpoint-verify';
import type { CoveredRow } from '../domain/audit-merkle';
import { AuditEventsRepository } from './repositories/audit-events';
import { SigningKeysRepository } from './repositories/signing-keys';

/** A file's text, or a URL's body (with `AUDIT_VERIFY_TOKEN` as a bearer token when set: GET /v1/audit/checkpoints wants one). */
async function textOf(source: string): Promise<string> {
  if (!/^https?:\/\//.test(source)) return readFile(source, 'utf8');
  const token = process.env.AUDIT_VERIFY_TOKEN;
  const res = await fetch(source, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`${source} answered ${res.status}`);
  return res.text();
}

/**
 * Every checkpoint a source holds: the checkpoint log (one JSON per line, with the rows each covers),
 * a page of GET /v1/audit/checkpoints (`items`), or `audit.checkpoint` events kept from webhooks or
 * GET /v1/events (`data.jws`).
 */
function keptCheckpoints(text: string): KeptCheckpoint[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const values: unknown[] = trimmed.startsWith('[') ? JSON.parse(trimmed)
    : trimmed.startsWith('{') && !trimmed.includes('\n') ? [JSON.parse(trimmed)]
      : trimmed.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
  return values.flatMap((value) => {
    const entry = value as { jws?: string; items?: unknown[]; data?: { jws?: string }; rows?: CoveredRow[] };
    if (Array.isArray(entry.items)) return keptCheckpoints(JSON.stringify(entry.items));
    const jws = entry.jws ?? entry.data?.jws;
    if (typeof jws !== 'string') return [];
    return [Array.isArray(entry.rows) ? { jws, rows: entry.rows } : { jws }];
  });
}

/** The keys checkpoints are checked with: a JWKS the auditor kept (`--jwks`), else every signing key's public half in the database. */
async function keysFrom(jwksSource: string | undefined, signingKeys: SigningKeysRepository): Promise<Map<string, KeyObject>> {
  if (jwksSource) {
    const { keys } = JSON.parse(await textOf(jwksSource)) as { keys: (Record<string, string> & { kid: string })[] };
    return new Map(keys.map((jwk) => [jwk.kid, createPublicKey({ key: jwk, format: 'jwk' })]));
  }
  return new Map((await signingKeys.publicKeys()).map(({ kid, publicPem }) => [kid, createPublicKey(publicPem)]));
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/**
 * `npm run audit:verify [-- --checkpoints <file or URL> [--jwks <file or URL>]]`: exit 0 when the
 * chain holds (and leads to every checkpoint's signed head), 1 naming the first broken link or the
 * first checkpoint the trail no longer matches.
 */
async function main(): Promise<number> {
  const db = createDb(loadConfig().databaseUrl, 1);
  try {
    const events = new AuditEventsRepository(db);
    const verdict = await verifyAuditChain(events);
    if (!verdict.intact) {
      process.stdout.write(`audit chain broken at seq ${verdict.seq} (id ${verdict.id}): ${verdict.reason}\n`);
      return 1;
    }
    const source = option('--checkpoints');
    if (!source) {
      process.stdout.write(`audit chain intact: ${verdict.rows} rows\n`);
      return 0;
    }
    const keys = await keysFrom(option('--jwks'), new SigningKeysRepository(db));
    const against = await verifyAgainstCheckpoints(events, keptCheckpoints(await textOf(source)), (kid) => keys.get(kid));
    if (!against.intact) {
      process.stdout.write(`audit chain does not match its checkpoints: ${against.reason}\n`);
      return 1;
    }
    const last = against.last ? `, the last at seq ${against.last.seq} signed ${against.last.time}` : '';
    process.stdout.write(`audit chain intact: ${verdict.rows} rows, matching ${against.checkpoints} checkpoints${last}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

main().then((code) => process.exit(code), (err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
});
