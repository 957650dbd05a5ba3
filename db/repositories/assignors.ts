import { v7 as uuidv7 } from 'uuid';
import type { AssignorInput, PrimaryAccount } from '../../domain/assignor-registration';
import { fromColumns, toColumns } from './columns';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface AssignorRow extends AssignorInput {
  id: string;
  disbursementMethod: 'pix_document' | 'bank_account' | null;
  pixKeyDocument: string | null;
  bankCode: string | null;
  bankAgency: string | null;
  bankAccount: string | null;
  bankAccountType: string | null;
  monthlyRatePct: string | null;
  discountPct: string | null;
  fixedDiscountBrl: string | null;
  floatingDays: number | null;
  limitBrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function accountColumns(account: PrimaryAccount): Record<string, unknown> {
  return toColumns({
    disbursementMethod: account.method,
    pixKeyDocument: account.pixKeyDocument,
    bankCode: account.method === 'bank_account' ? account.code : null,
    bankAgency: account.method === 'bank_account' ? account.agency : null,
    bankAccount: account.method === 'bank_account' ? account.account : null,
    bankAccountType: account.method === 'bank_account' ? account.accountType : null,
  } satisfies Partial<AssignorRow>);
}

const assignorOf = (row: Record<string, unknown> | undefined) => (row ? fromColumns<AssignorRow>(row) : undefined);

export class AssignorsRepository extends TenantScopedRepository {
  async byId(id: string, lock = false): Promise<AssignorRow | undefined> {
    const query = this.scoped('assignors').where({ id }).first();
    return assignorOf(await (lock ? query.forUpdate() : query));
  }

  async byDocument(document: string, lock = false): Promise<AssignorRow | undefined> {
    const query = this.scoped('assignors').where({ document }).first();
    return assignorOf(await (lock ? query.forUpdate() : query));
  }

  async list(limit: number, offset: number): Promise<{ items: AssignorRow[]; total: number }> {
    const { items, total } = await paged<Record<string, unknown>>(() => this.scoped('assignors'), newestFirst(), limit, offset);
    return { items: items.map((row) => fromColumns<AssignorRow>(row)), total };
  }

  /** Inserts unless the document exists; returns the row either way and whether it was new. */
  async register(input: AssignorInput, account: PrimaryAccount | null): Promise<{ row: AssignorRow; created: boolean }> {
    const inserted: Record<string, unknown>[] = await this.insertOwned('assignors', {
      id: uuidv7(), type: input.type, document: input.document, cpf: input.cpf, cnpj: input.cnpj, name: input.name,
      trade_name: input.tradeName, email: input.email, phone: input.phone,
      address: input.address === null ? null : JSON.stringify(input.address),
      ...(account ? accountColumns(account) : {}),
    }).onConflict(['originator_id', 'document']).ignore().returning('*');
    if (inserted.length > 0) return { row: fromColumns<AssignorRow>(inserted[0]), created: true };
    return { row: (await this.byDocument(input.document, true))!, created: false };
  }

  /** Contract bank rule 5: an account is only set when the assignor has none yet. */
  async setPrimaryAccountIfMissing(id: string, account: PrimaryAccount): Promise<AssignorRow> {
    const [row] = await this.scoped('assignors').where({ id }).whereNull('disbursement_method')
      .update({ ...accountColumns(account), updated_at: this.db.fn.now() }).returning('*');
    return row ? fromColumns<AssignorRow>(row) : (await this.byId(id))!;
  }
}
