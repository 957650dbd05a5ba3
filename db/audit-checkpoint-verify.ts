import type { KeyObject } from 'node:crypto';
import { readCheckpoint, SignedCheckpoint } from '../domain/audit-checkpoint';
import { AuditEventsRepository } from './repositories/audit-events';

export type CheckpointVerdict =
  | { intact: true; checkpoints: number; last: SignedCheckpoint | null }
  | { intact: false; checkpoint: string; reason: string };

/**
 * Checks the trail against checkpoints kept outside the database: each must carry a signature by a
 * key of `keyOf`, and the trail's row at its `seq` must still have the hash it signed. A trail
 * rewritten from some row on, every later hash recomputed, still links up (audit:verify alone
 * passes) but no longer leads to the heads signed after that row: the first such checkpoint is
 * named, with the last one still matched, between which the rewritten row lies.
 */
export async function verifyAgainstCheckpoints(repository: AuditEventsRepository, jwsList: string[], keyOf: (kid: string) => KeyObject | undefined): Promise<CheckpointVerdict> {
  const checkpoints: SignedCheckpoint[] = [];
  for (const jws of jwsList) {
    const reading = readCheckpoint(jws, keyOf);
    if (!reading.valid) return { intact: false, checkpoint: `${jws.slice(0, 24)}…`, reason: `not a valid checkpoint: ${reading.reason}` };
    checkpoints.push(reading.checkpoint);
  }
  checkpoints.sort((a, b) => a.seq - b.seq || a.time.localeCompare(b.time));
  let matched: SignedCheckpoint | null = null;
  for (const checkpoint of checkpoints) {
    const hash = await repository.hashAt(checkpoint.seq);
    const since = matched ? `after seq ${matched.seq} (checkpoint ${matched.id}, which still matches)` : 'at or before it (no earlier checkpoint matches)';
    const named = `checkpoint ${checkpoint.id} (seq ${checkpoint.seq}, signed ${checkpoint.time}, kid ${checkpoint.kid})`;
    if (hash === null) return { intact: false, checkpoint: checkpoint.id, reason: `${named}: the trail has no row at seq ${checkpoint.seq}; rows were removed ${since}` };
    if (hash !== checkpoint.hash) {
      return { intact: false, checkpoint: checkpoint.id, reason: `${named}: the row at seq ${checkpoint.seq} no longer has the signed hash; a row was rewritten ${since}, up to seq ${checkpoint.seq}` };
    }
    matched = checkpoint;
  }
  return { intact: true, checkpoints: checkpoints.length, last: matched };
}
