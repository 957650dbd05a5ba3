import type { KeyObject } from 'node:crypto';
import { readCheckpoint, SignedCheckpoint } from '../domain/audit-checkpoint';
import { CoveredRow, merkleRoot } from '../domain/audit-merkle';
import { AuditEventsRepository } from './repositories/audit-events';

/** A checkpoint as a source holds it: its JWS, and the rows it covers when the source is the checkpoint log. */
export interface KeptCheckpoint {
  jws: string;
  rows?: CoveredRow[];
}

export type CheckpointVerdict =
  | { intact: true; checkpoints: number; last: SignedCheckpoint | null }
  | { intact: false; checkpoint: string; reason: string; rewrittenSeq?: number };

type Read = SignedCheckpoint & { rows?: CoveredRow[] };

/**
 * The same checkpoint may come from several sources (the log, events, the list): one of each, with
 * its rows when any source had them.
 */
function onePerId(read: Read[]): Read[] {
  const byId = new Map<string, Read>();
  for (const checkpoint of read) if (!byId.get(checkpoint.id)?.rows) byId.set(checkpoint.id, checkpoint);
  return [...byId.values()].sort((a, b) => a.seq - b.seq || a.time.localeCompare(b.time));
}

/** Rows a log line holds are trusted only when they are what the checkpoint signed: its root, ending at its head. */
function vouchedRows(checkpoint: Read): CoveredRow[] | null {
  const { rows, root } = checkpoint;
  if (!rows || rows.length === 0 || root === undefined) return null;
  const [lastSeq, lastHash] = rows[rows.length - 1];
  return merkleRoot(rows) === root && lastSeq === checkpoint.seq && lastHash === checkpoint.hash ? rows : null;
}

/**
 * Checks the trail against checkpoints kept outside the database: each must carry a signature by a
 * key of `keyOf`, and the trail's row at its `seq` must still have the hash it signed. A trail
 * rewritten from some row on, every later hash recomputed, still links up (audit:verify alone
 * passes) but no longer leads to the heads signed after that row. The first such checkpoint is
 * named and, when the checkpoint log gave the rows it covers (vouched for by its signed Merkle
 * root), the first of them whose hash changed: the row rewritten. Without them (a checkpoint from
 * events, or signed before roots), the range between the last matched checkpoint and it.
 */
export async function verifyAgainstCheckpoints(repository: AuditEventsRepository, kept: KeptCheckpoint[], keyOf: (kid: string) => KeyObject | undefined): Promise<CheckpointVerdict> {
  const read: Read[] = [];
  for (const { jws, rows } of kept) {
    const reading = readCheckpoint(jws, keyOf);
    if (!reading.valid) return { intact: false, checkpoint: `${jws.slice(0, 24)}…`, reason: `not a valid checkpoint: ${reading.reason}` };
    read.push({ ...reading.checkpoint, rows });
  }
  const checkpoints = onePerId(read);
  let matched: SignedCheckpoint | null = null;
  for (const checkpoint of checkpoints) {
    const hash = await repository.hashAt(checkpoint.seq);
    if (hash === checkpoint.hash) {
      matched = checkpoint;
      continue;
    }
    const named = `checkpoint ${checkpoint.id} (seq ${checkpoint.seq}, signed ${checkpoint.time}, kid ${checkpoint.kid})`;
    const rows = vouchedRows(checkpoint);
    if (checkpoint.rows && !rows) return { intact: false, checkpoint: checkpoint.id, reason: `${named}: the rows its log line holds are not the ones it signed (the log line was altered)` };
    if (rows) return { intact: false, checkpoint: checkpoint.id, ...(await firstRewritten(repository, named, rows, matched)) };
    const since = matched ? `after seq ${matched.seq} (checkpoint ${matched.id}, which still matches)` : 'at or before it (no earlier checkpoint matches)';
    if (hash === null) return { intact: false, checkpoint: checkpoint.id, reason: `${named}: the trail has no row at seq ${checkpoint.seq}; rows were removed ${since}` };
    return { intact: false, checkpoint: checkpoint.id, reason: `${named}: the row at seq ${checkpoint.seq} no longer has the signed hash; a row was rewritten ${since}, up to seq ${checkpoint.seq}` };
  }
  return { intact: true, checkpoints: checkpoints.length, last: matched };
}

/**
 * The first covered row whose hash is not the signed one. It is the row rewritten, unless it is the
 * checkpoint's first and rows lie between it and the last matched checkpoint (or the trail's start):
 * then the rewrite may lie among them.
 */
async function firstRewritten(repository: AuditEventsRepository, named: string, rows: CoveredRow[], matched: SignedCheckpoint | null): Promise<{ reason: string; rewrittenSeq?: number }> {
  const now = new Map(await repository.coveredRows(rows[0][0] - 1, rows[rows.length - 1][0]));
  const index = rows.findIndex(([seq, hash]) => now.get(seq) !== hash);
  const [seq] = rows[index];
  const what = now.has(seq) ? `the row at seq ${seq} no longer has the hash the checkpoint signed for it` : `the trail has no row at seq ${seq}, which the checkpoint signed`;
  const settledBefore = index > 0 || (await repository.coveredRows(matched?.seq ?? 0, seq - 1)).length === 0;
  if (settledBefore) return { reason: `${named}: ${what}: seq ${seq} was rewritten`, rewrittenSeq: seq };
  const since = matched ? `after seq ${matched.seq} (checkpoint ${matched.id}, which still matches)` : 'from the start of the trail';
  return { reason: `${named}: ${what}: seq ${seq} or a row before it, ${since}, was rewritten` };
}
