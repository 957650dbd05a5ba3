import { createPrivateKey } from 'node:crypto';
import { appendFile, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { signCheckpoint } from '../domain/audit-checkpoint';
import { CoveredRow, merkleRoot } from '../domain/audit-merkle';
import { eventId } from '../domain/events';
import { AuditCheckpointsRepository, CheckpointRow } from '../db/repositories/audit-checkpoints';
import { recordEvent } from '../db/repositories/events';
import { AuditEventsRepository } from '../db/repositories/audit-events';
import type { AuditedRequest } from '../domain/audit-chain';
import { SigningKeysRepository } from '../db/repositories/signing-keys';
import type { CipherRing } from '../platform/crypto/cipher-ring';

export interface CheckpointDeps {
  db: Knex;
  cipher: CipherRing;
  /** The append-only checkpoint log outside Postgres (AUDIT_CHECKPOINT_LOG). */
  logPath: string;
  now?: () => Date;
}

/** The key tokens are signed with: the newest active key of the JWKS ring, opened with the payload key ring. */
async function signingKey(db: Knex, cipher: CipherRing) {
  const active = (await new SigningKeysRepository(db).all()).find((key) => key.state === 'active');
  if (!active) throw new Error('no active signing key: run npm run keys:rotate');
  return { kid: active.kid, privateKey: createPrivateKey(cipher.openText(active.privateSealed)) };
}

/**
 * One line per checkpoint, appended and flushed to disk before the checkpoint is published anywhere
 * else, with the `[seq, hash]` of every row it covers: what the verifier compares the trail with,
 * row by row, once the signed Merkle root has vouched for them.
 */
async function appendToLog(path: string, checkpoint: CheckpointRow, rows: readonly CoveredRow[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const file = await open(path, 'a');
  try {
    const line = { id: checkpoint.id, seq: checkpoint.seq, hash: checkpoint.hash, time: checkpoint.time, kid: checkpoint.kid, jws: checkpoint.jws, from_seq: checkpoint.fromSeq, root: checkpoint.root, rows };
    await appendFile(file, `${JSON.stringify(line)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Signs the audit chain's head, with the Merkle root of the rows since the previous checkpoint, and publishes it where the database's administrators cannot rewrite
 * it: first the checkpoint log (a checkpoint there and not in Postgres is still a true signed head),
 * then, in one transaction, the checkpoint row and an `audit.checkpoint` event for each originator
 * whose operations or titles the rows since the previous checkpoint are about (the events API and
 * webhooks deliver it), with the admin's audit row when an admin asked (`audit`). Null while the chain is empty.
 */
export async function makeCheckpoint({ db, cipher, logPath, now = () => new Date() }: CheckpointDeps, audit?: AuditedRequest): Promise<CheckpointRow | null> {
  const repository = new AuditCheckpointsRepository(db);
  const head = await repository.head();
  if (!head) return null;
  const fromSeq = (await repository.lastCoveredSeq()) + 1;
  const originatorIds = await repository.originatorsOf(fromSeq - 1, head.seq);
  const rows = await new AuditEventsRepository(db).coveredRows(fromSeq - 1, head.seq);
  const signed = signCheckpoint({ id: uuidv7(), ...head, time: now().toISOString(), fromSeq, root: merkleRoot(rows) }, await signingKey(db, cipher));
  const checkpoint: CheckpointRow = { ...signed, fromSeq, originatorIds };
  await appendToLog(logPath, checkpoint, rows);
  await db.transaction(async (trx) => {
    await new AuditCheckpointsRepository(trx).insert(checkpoint);
    if (audit) {
      await new AuditEventsRepository(trx).appendFor(audit, {
        target: { type: 'audit_checkpoint', id: checkpoint.id }, after: { seq: checkpoint.seq, hash: checkpoint.hash, kid: checkpoint.kid, originators: originatorIds.length },
      });
    }
    for (const originatorId of originatorIds) {
      await recordEvent(trx, {
        eventId: eventId(checkpoint.id, 'audit.checkpoint', originatorId), originatorId, eventType: 'audit.checkpoint', occurredAt: new Date(checkpoint.time),
        data: { checkpoint_id: checkpoint.id, originator_id: originatorId, seq: checkpoint.seq, hash: checkpoint.hash, from_seq: fromSeq, signed_at: checkpoint.time, kid: checkpoint.kid, jws: checkpoint.jws },
      });
    }
  });
  return checkpoint;
}

/** The hourly Schedule's step. */
export function createAuditCheckpointActivities(deps: CheckpointDeps) {
  return {
    async auditCheckpoint(): Promise<{ id: string; seq: number } | null> {
      const checkpoint = await makeCheckpoint(deps);
      return checkpoint && { id: checkpoint.id, seq: checkpoint.seq };
    },
  };
}
