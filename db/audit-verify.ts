import { auditHash, GENESIS_HASH } from '../domain/audit-chain';
import { AuditEventsRepository } from './repositories/audit-events';

export type ChainVerdict = { intact: true; rows: number } | { intact: false; rows: number; seq: number; id: string; reason: string };

/** Walks the audit chain from its start and names the first row whose link or hash does not hold. */
export async function verifyAuditChain(repository: AuditEventsRepository, pageSize = 1000): Promise<ChainVerdict> {
  let prevHash = GENESIS_HASH;
  let rows = 0;
  for (let afterSeq = 0; ;) {
    const page = await repository.chainPage(afterSeq, pageSize);
    if (page.length === 0) return { intact: true, rows };
    for (const row of page) {
      rows += 1;
      if (row.prevHash !== prevHash) return { intact: false, rows, seq: row.seq, id: row.id, reason: 'prev_hash is not the hash of the row before it (a row removed or inserted)' };
      if (auditHash(row, prevHash) !== row.hash) return { intact: false, rows, seq: row.seq, id: row.id, reason: 'hash does not match the row (the row was altered)' };
      prevHash = row.hash;
    }
    afterSeq = page[page.length - 1].seq;
  }
}
