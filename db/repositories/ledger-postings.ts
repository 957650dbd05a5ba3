import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { accountKey, accountRefOf, StoredAccount } from '../../domain/ledger/chart';
import { fromColumns } from './columns';
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
    return (await this.postAll([spec]))[0];
  }

  /**
   * Records each of `specs` once per idempotency key, in four statements however many there are
   * (an operation's acquisitions are one per title): for each, true when this call recorded it. A
   * spec may not reverse another of the same batch (the statement cannot see its own rows, so its
   * `reverses_id` would be null): post such a reversal on its own.
   */
  async postAll(specs: readonly TransactionSpec[]): Promise<boolean[]> {
    if (specs.length === 0) return [];
    const ids = specs.map(() => uuidv7());
    const inserted: { id: string }[] = await this.insertOwned('ledger_transactions', specs.map((spec, i) => ({
      id: ids[i], kind: spec.kind, status: spec.status, idempotency_key: spec.idempotencyKey, effective_at: spec.effectiveAt,
      operation_id: spec.references.operationId ?? null, title_id: spec.references.titleId ?? null, payable_id: spec.references.payableId ?? null,
      assignor_id: spec.references.assignorId ?? null, pix_end_to_end_id: spec.references.pixEndToEndId ?? null,
      external_id: spec.references.externalId ?? null,
      reverses_id: spec.reverses ? this.scoped('ledger_transactions').where({ idempotency_key: spec.reverses }).select('id') : null,
    }))).onConflict(['originator_id', 'idempotency_key']).ignore().returning('id');
    const recorded = new Set(inserted.map((row) => row.id));
    const posted = specs.filter((_, i) => recorded.has(ids[i]));
    if (posted.length === 0) return ids.map(() => false);
    const accounts = await new LedgerAccountsRepository(this.db, this.originatorId).ensure(posted.flatMap((spec) => spec.entries.map((entry) => entry.account)));
    await this.insertOwned('ledger_entries', specs.flatMap((spec, i) => (recorded.has(ids[i]) ? spec.entries.map((entry, position) => ({
      id: uuidv7(), transaction_id: ids[i], position, account_id: accounts.get(accountKey(entry.account)), direction: entry.direction,
      amount_cents: entry.amount.cents.toFixed(0), operation_id: entry.operationId, title_id: entry.titleId,
    })) : [])));
    return ids.map((id) => recorded.has(id));
  }

  /** Posts or voids a pending transaction: true when this call did, false when it is not pending (resolved before, or never recorded). */
  async resolve(idempotencyKey: string, to: Exclude<TransactionStatus, 'pending'>, effectiveAt: Date): Promise<boolean> {
    return (await this.scoped('ledger_transactions').where({ idempotency_key: idempotencyKey, status: 'pending' })
      .update({ status: to, resolved_effective_at: effectiveAt, resolved_at: this.db.fn.now() })) > 0;
  }

  /** A recorded transaction as its builder made it, to reverse it. */
  async load(idempotencyKey: string): Promise<TransactionSpec | null> {
    const head = await this.scoped('ledger_transactions').where({ idempotency_key: idempotencyKey }).first();
    if (!head) return null;
    const entries: Record<string, unknown>[] = await this.db('ledger_entries as e').join('ledger_accounts as a', 'a.id', 'e.account_id')
      .where('e.transaction_id', head.id).orderBy('e.position')
      .select('e.direction', 'e.amount_cents', 'e.operation_id as entry_operation_id', 'e.title_id as entry_title_id', 'a.kind', 'a.psp', 'a.operation_id', 'a.title_id', 'a.payable_id', 'a.assignor_id');
    const references = fromColumns<Record<string, string | null>>({
      operation_id: head.operation_id, title_id: head.title_id, payable_id: head.payable_id, assignor_id: head.assignor_id,
      pix_end_to_end_id: head.pix_end_to_end_id, external_id: head.external_id,
    });
    return {
      kind: head.kind, idempotencyKey, status: head.status === 'pending' ? 'pending' : 'posted', effectiveAt: head.effective_at,
      references: Object.fromEntries(Object.entries(references).filter(([, value]) => value !== null)),
      entries: entries.map((entry) => ({
        account: accountRefOf(fromColumns<StoredAccount>(entry)), direction: entry.direction as 'debit' | 'credit',
        amount: Money.fromCents(entry.amount_cents as number), operationId: entry.entry_operation_id as string | null, titleId: entry.entry_title_id as string | null,
      })),
    };
  }

  async statusOf(idempotencyKey: string): Promise<TransactionStatus | null> {
    const row = await this.scoped('ledger_transactions').where({ idempotency_key: idempotencyKey }).first('status');
    return row?.status ?? null;
  }
}
