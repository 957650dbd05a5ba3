import { v7 as uuidv7 } from 'uuid';
import { accountKey } from '../../domain/ledger/chart';
import type { TransactionSpec, TransactionStatus } from '../../domain/ledger/transaction';
import { LedgerAccountsRepository } from './ledger-accounts';
import { TenantScopedRepository } from './tenant-scoped';

/**
 * Writes the originator's books. The caller passes its own database transaction, the one that
 * moves the money, so the posting commits with the change that causes it or not at all; the
 * database judges each ledger transaction's balance when that transaction commits.
 */
export class LedgerPostingsRepository extends TenantScopedRepository {
  /** Records `spec` once per idempotency key: true when this call recorded it, false when a retry finds it recorded. */
  async post(spec: TransactionSpec): Promise<boolean> {
    const id = uuidv7();
    const reverses = spec.reverses ? this.scoped('ledger_transactions').where({ idempotency_key: spec.reverses }).select('id') : null;
    const inserted = await this.insertOwned('ledger_transactions', {
      id, kind: spec.kind, status: spec.status, idempotency_key: spec.idempotencyKey, effective_at: spec.effectiveAt,
      operation_id: spec.references.operationId ?? null, title_id: spec.references.titleId ?? null, payable_id: spec.references.payableId ?? null,
      assignor_id: spec.references.assignorId ?? null, pix_end_to_end_id: spec.references.pixEndToEndId ?? null,
      external_id: spec.references.externalId ?? null, reverses_id: reverses,
    }).onConflict(['originator_id', 'idempotency_key']).ignore().returning('id');
    if (inserted.length === 0) return false;
    const accounts = await new LedgerAccountsRepository(this.db, this.originatorId).ensure(spec.entries.map((entry) => entry.account));
    await this.insertOwned('ledger_entries', spec.entries.map((entry, position) => ({
      id: uuidv7(), transaction_id: id, position, account_id: accounts.get(accountKey(entry.account)), direction: entry.direction,
      amount_cents: entry.amount.cents.toFixed(0), operation_id: entry.operationId, title_id: entry.titleId,
    })));
    return true;
  }

  /** Posts or voids a pending transaction: true when this call did, false when it is not pending (resolved before, or never recorded). */
  async resolve(idempotencyKey: string, to: Exclude<TransactionStatus, 'pending'>, effectiveAt: Date): Promise<boolean> {
    return (await this.scoped('ledger_transactions').where({ idempotency_key: idempotencyKey, status: 'pending' })
      .update({ status: to, resolved_effective_at: effectiveAt, resolved_at: this.db.fn.now() })) > 0;
  }

  async statusOf(idempotencyKey: string): Promise<TransactionStatus | null> {
    const row = await this.scoped('ledger_transactions').where({ idempotency_key: idempotencyKey }).first('status');
    return row?.status ?? null;
  }
}
