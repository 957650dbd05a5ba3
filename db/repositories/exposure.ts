import { Money } from '../../domain/money';
import { TenantScopedRepository } from './tenant-scoped';

/** Open exposure before an operation: the originator's, its assignor's and each payer's (by payer id). */
export interface OpenExposure {
  originator: Money;
  assignor: Money;
  payers: Map<string, Money>;
}

interface CounterRow {
  scope: 'originator' | 'assignor' | 'payer';
  entity_id: string;
  open_exposure: string;
}

/**
 * Open exposure (DESIGN.md §7): Σ outstanding of the open titles, per assignor, per payer and for
 * the whole originator, measured on the requested net future value less what has been paid. The
 * `exposure_counters` rows hold it, kept exact by triggers on `titles` (migration
 * 20261121060100_exposure_counters), so reading it costs one row per entity whatever the book.
 */
export class ExposureRepository extends TenantScopedRepository {
  /**
   * Locks the counters an operation of `assignorId` and `payerIds` consumes, creating those still
   * missing at 0, and reads them, in one statement. Locked in the triggers' order (the originator
   * row first, then the assignor, then the payers by id) and held until commit: another operation
   * of this originator waits here until this one has written its titles (which move the counters)
   * or given up, so two operations can never both fit under a limit that only one fits.
   */
  async lockForOperation(assignorId: string, payerIds: readonly string[]): Promise<OpenExposure> {
    const keys = [
      { scope: 'originator', entity_id: this.originatorId },
      { scope: 'assignor', entity_id: assignorId },
      ...[...new Set(payerIds)].map((id) => ({ scope: 'payer', entity_id: id })),
    ];
    const { rows }: { rows: CounterRow[] } = await this.db.raw(`
      insert into exposure_counters as c (originator_id, scope, entity_id, open_exposure)
      select ?, k.scope, k.entity_id, 0 from jsonb_to_recordset(?::jsonb) as k (scope text, entity_id uuid)
      order by k.scope <> 'originator', k.scope, k.entity_id
      -- the no-op update is what locks an existing row and returns its latest committed value
      on conflict (originator_id, scope, entity_id) do update set open_exposure = c.open_exposure
      returning c.scope, c.entity_id, c.open_exposure`, [this.originatorId, JSON.stringify(keys)]);
    const byKey = new Map(rows.map((row) => [`${row.scope}:${row.entity_id}`, Money.of(row.open_exposure)]));
    const of = (scope: CounterRow['scope'], id: string) => byKey.get(`${scope}:${id}`)!;
    return {
      originator: of('originator', this.originatorId),
      assignor: of('assignor', assignorId),
      payers: new Map(payerIds.map((id) => [id, of('payer', id)])),
    };
  }
}
