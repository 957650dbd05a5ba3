import type { Knex } from 'knex';
import type { SignedCheckpoint } from '../../domain/audit-checkpoint';

export interface CheckpointRow extends SignedCheckpoint {
  fromSeq: number;
  originatorIds: string[];
}

const toRow = (row: Record<string, unknown>): CheckpointRow => ({
  id: String(row.id), seq: Number(row.seq), hash: String(row.hash), fromSeq: Number(row.from_seq), time: (row.signed_at as Date).toISOString(),
  kid: String(row.kid), jws: String(row.jws), originatorIds: row.originator_ids as string[],
});

/** Signed heads of the audit chain and whom each was published to. */
export class AuditCheckpointsRepository {
  constructor(private readonly db: Knex) {}

  /** The chain's last row, or none. */
  async head(): Promise<{ seq: number; hash: string } | null> {
    const row = await this.db('audit_events').select('seq', 'hash').orderBy('seq', 'desc').first();
    return row ? { seq: Number(row.seq), hash: String(row.hash) } : null;
  }

  /** The last row the previous checkpoint covered (0 before the first). */
  async lastCoveredSeq(): Promise<number> {
    const row = await this.db('audit_checkpoints').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }

  /** The originators whose operations, or their titles, the rows in (afterSeq, uptoSeq] are about. */
  async originatorsOf(afterSeq: number, uptoSeq: number): Promise<string[]> {
    const { rows } = await this.db.raw(`select distinct o.originator_id::text as id
      from audit_events a
      left join titles t on a.target_type = 'title' and t.id::text = a.target_id
      join operations o on o.id::text = case when a.target_type = 'operation' then a.target_id when a.target_type = 'title' then t.operation_id::text end
      where a.seq > ? and a.seq <= ? order by 1`, [afterSeq, uptoSeq]);
    return rows.map((row: { id: string }) => row.id);
  }

  async insert(checkpoint: CheckpointRow): Promise<void> {
    await this.db('audit_checkpoints').insert({
      id: checkpoint.id, seq: checkpoint.seq, hash: checkpoint.hash, from_seq: checkpoint.fromSeq, signed_at: checkpoint.time,
      kid: checkpoint.kid, jws: checkpoint.jws, originator_ids: checkpoint.originatorIds,
    });
  }

  /** An originator's checkpoints, newest first. */
  async forOriginator(originatorId: string, limit: number, offset: number): Promise<{ items: CheckpointRow[]; total: number }> {
    const mine = () => this.db('audit_checkpoints').whereRaw('originator_ids @> array[?]::uuid[]', [originatorId]);
    const [rows, [{ total }]] = await Promise.all([
      mine().select('*').orderBy([{ column: 'signed_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset(offset),
      mine().count({ total: '*' }),
    ]);
    return { items: rows.map(toRow), total: Number(total) };
  }
}
