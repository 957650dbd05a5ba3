import { TenantScopedRepository } from './tenant-scoped';

/** What holds a claimed receivable: a stock item in stock, the operation of an open title, or both (a partial anticipation and its remainder). */
export interface ClaimHolder {
  stockItemId: string | null;
  operationId: string | null;
}

/**
 * `receivable_claims` (migration 20261123210000): the originator's claims on receivables. A
 * claim is taken here for a receivable that enters as new; the triggers on `stock_items` and
 * `titles` keep it while anything holds it and drop it when nothing does.
 */
export class ReceivableClaimsRepository extends TenantScopedRepository {
  /**
   * Claims the fingerprints and returns those another transaction of this originator already
   * holds. One statement, in fingerprint order, so two creations sharing several receivables wait
   * on each other in one order and never deadlock; a claim inserted by a transaction still open
   * makes this one wait for its outcome (the primary key), so the second of two concurrent
   * creations sees the first's claim or its rollback, never neither.
   */
  async claim(fingerprints: readonly string[]): Promise<Set<string>> {
    if (fingerprints.length === 0) return new Set();
    const { rows } = await this.db.raw(`
      insert into receivable_claims (originator_id, fingerprint)
      select ?, f from unnest(?::text[]) as f order by f
      on conflict do nothing returning fingerprint`, [this.originatorId, [...new Set(fingerprints)]]);
    const taken = new Set((rows as { fingerprint: string }[]).map((row) => row.fingerprint));
    return new Set(fingerprints.filter((f) => !taken.has(f)));
  }

  /** Who holds each fingerprint now (read after a refused claim, to name it). */
  async holders(fingerprints: readonly string[]): Promise<Map<string, ClaimHolder>> {
    const [stock, titles] = await Promise.all([
      this.scoped('stock_items').where({ status: 'IN_STOCK' }).whereIn('receivable_fingerprint', [...fingerprints])
        .orderBy('id').select('receivable_fingerprint as fingerprint', 'id'),
      this.scoped('titles').whereRaw('title_counts_as_exposure(status)').whereIn('receivable_fingerprint', [...fingerprints])
        .orderBy('id').select('receivable_fingerprint as fingerprint', 'operation_id as id'),
    ]) as [{ fingerprint: string; id: string }[], { fingerprint: string; id: string }[]];
    const held = new Map<string, ClaimHolder>();
    const holder = (f: string) => held.get(f) ?? held.set(f, { stockItemId: null, operationId: null }).get(f)!;
    for (const row of stock) holder(row.fingerprint).stockItemId ??= row.id;
    for (const row of titles) holder(row.fingerprint).operationId ??= row.id;
    return held;
  }

  /** Which of the fingerprints another originator holds. Says nothing of who. */
  async heldElsewhere(fingerprints: readonly string[]): Promise<Set<string>> {
    if (fingerprints.length === 0) return new Set();
    const rows: { fingerprint: string }[] = await this.db('receivable_claims').distinct('fingerprint')
      .whereIn('fingerprint', [...new Set(fingerprints)]).whereNot('originator_id', this.originatorId);
    return new Set(rows.map((row) => row.fingerprint));
  }
}
