import { Money } from '../../domain/money';
import { OPEN_TITLE_STATUSES } from '../../domain/operation-lifecycle';
import { TenantScopedRepository } from './tenant-scoped';

/**
 * Open exposure (DESIGN.md §7): Σ outstanding of the open titles, per assignor, per payer and for
 * the whole originator. Outstanding is measured on the requested net future value, less what has
 * been paid. Called inside the creation transaction, after the entity rows are locked.
 */
export class ExposureRepository extends TenantScopedRepository {
  private open() {
    return this.scoped('titles').whereIn('status', [...OPEN_TITLE_STATUSES]);
  }

  /** Serialises limit checks of one originator: the aggregate ceiling spans all its operations. */
  async lockOriginator(): Promise<void> {
    await this.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`exposure:${this.originatorId}`]);
  }

  async ofAssignor(assignorId: string): Promise<Money> {
    const [{ total }] = await this.open().where({ assignor_id: assignorId }).sum<{ total: string | null }[]>({ total: 'outstanding_balance' });
    return Money.of(total ?? 0);
  }

  async ofPayers(payerIds: readonly string[]): Promise<Map<string, Money>> {
    const rows: { payer_id: string; total: string }[] = await this.open().whereIn('payer_id', [...payerIds])
      .groupBy('payer_id').select('payer_id').sum({ total: 'outstanding_balance' });
    return new Map(payerIds.map((id) => [id, Money.of(rows.find((r) => r.payer_id === id)?.total ?? 0)]));
  }

  async ofOriginator(): Promise<Money> {
    const [{ total }] = await this.open().sum<{ total: string | null }[]>({ total: 'outstanding_balance' });
    return Money.of(total ?? 0);
  }
}
