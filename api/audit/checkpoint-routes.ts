import { Router } from 'express';
import type { Knex } from 'knex';
import { makeCheckpoint } from '../../activities/audit-checkpoint';
import { AuditCheckpointsRepository, CheckpointRow } from '../../db/repositories/audit-checkpoints';
import { Conflict } from '../../domain/errors';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import { created, handle, ok } from '../http/handle';
import { page, tenantOf } from '../http/request-helpers';
import type { Schema } from '../openapi/contract-types';
import { auditedRequest } from './audit-trail';

function present(row: CheckpointRow): Schema<'AuditCheckpoint'> {
  return { id: row.id, seq: row.seq, hash: row.hash, from_seq: row.fromSeq, signed_at: row.time, kid: row.kid, jws: row.jws };
}

/** Audit checkpoints: an admin's on-demand one, and each originator's list of those that cover it. */
export function checkpointRoutes(deps: { db: Knex; cipher: CipherRing; checkpointLog: string }): Router {
  const router = Router();

  router.post('/v1/backoffice/audit/checkpoints', handle(async (req) => {
    // The admin's row commits with the checkpoint's own, in one transaction.
    const checkpoint = await makeCheckpoint({ db: deps.db, cipher: deps.cipher, logPath: deps.checkpointLog }, auditedRequest(req, 'audit.checkpoint'));
    if (!checkpoint) throw new Conflict('audit_trail_empty');
    return created(present(checkpoint));
  }));

  router.get('/v1/audit/checkpoints', handle(async (req) => {
    const { limit, offset } = page(req);
    const { items, total } = await new AuditCheckpointsRepository(deps.db).forOriginator(tenantOf(req), limit, offset);
    return ok({ items: items.map(present), total, limit, offset });
  }));
  return router;
}
