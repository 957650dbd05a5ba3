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
   * holds (`held`), and, in the same round trip, which of `lookElsewhere` another originator holds.
   * The claims go in one statement, in fingerprint order, so two creations sharing several
   * receivables wait on each other in one order and never deadlock; a claim inserted by a
   * transaction still open makes this one wait for its outcome (the primary key), so the second of
   * two concurrent creations sees the first's claim or its rollback, never neither.
   */
  async claim(fingerprints: readonly string[], lookElsewhere: readonly string[] = []): Promise<{ held: Set<string>; elsewhere: Set<string> }> {
    if (fingerprints.length === 0 && lookElsewhere.length === 0) return { held: new Set(), elsewhere: new Set() };
    const { rows } = await this.db.raw(`
      with claimed as (
        insert into receivable_claims (originator_id, fingerprint)
        select ?, f from unnest(?::text[]) as f order by f
        on conflict do nothing returning fingerprint)
      select true as claimed, fingerprint from claimed
      union all
      select distinct false, fingerprint from receivable_claims where fingerprint = any(?::text[]) and originator_id <> ?`,
    [this.originatorId, [...new Set(fingerprints)], [...new Set(lookElsewhere)], this.originatorId])
      // Every creation runs it: prepared once per connection (named), as the idempotency statements are.
      .options({ name: 'receivable_claims_claim' });
    const found = rows as { claimed: boolean; fingerprint: string }[];
    const taken = new Set(found.filter((row) => row.claimed).map((row) => row.fingerprint));
    return {
      held: new Set(fingerprints.filter((f) => !taken.has(f))),
      elsewhere: new Set(found.filter((row) => !row.claimed).map((row) => row.fingerprint)),
    };
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
    return (await this.claim([], fingerprints)).elsewhere;
  }
}
