import { v7 as uuidv7 } from 'uuid';
import { AccountRef, accountKey, NORMAL_BALANCE } from '../../domain/ledger/chart';
import { TenantScopedRepository } from './tenant-scoped';

const columnsOf = (ref: AccountRef): Record<string, unknown> => ({
  kind: ref.kind, normal_balance: NORMAL_BALANCE[ref.kind], account_key: accountKey(ref),
  psp: 'psp' in ref ? ref.psp : null,
  operation_id: 'operationId' in ref ? ref.operationId : null,
  title_id: 'titleId' in ref ? ref.titleId : null,
  payable_id: 'payableId' in ref ? ref.payableId : null,
  assignor_id: 'assignorId' in ref ? ref.assignorId : null,
});

/** The originator's chart: each account opened the first time a transaction moves it. */
export class LedgerAccountsRepository extends TenantScopedRepository {
  /** The ids of `refs`' accounts by key, opening the ones that do not exist yet. */
  async ensure(refs: readonly AccountRef[]): Promise<Map<string, string>> {
    const unique = new Map(refs.map((ref) => [accountKey(ref), ref]));
    await this.insertOwned('ledger_accounts', [...unique.values()].map((ref) => ({ id: uuidv7(), ...columnsOf(ref) })))
      .onConflict(['originator_id', 'account_key']).ignore();
    const rows: { id: string; account_key: string }[] = await this.scoped('ledger_accounts').whereIn('account_key', [...unique.keys()]).select('id', 'account_key');
    return new Map(rows.map((row) => [row.account_key, row.id]));
  }
}
