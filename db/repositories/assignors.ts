import { v7 as uuidv7 } from 'uuid';
import type { AssignorInput, PrimaryAccount } from '../../domain/assignor-registration';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface AssignorRow {
  id: string;
  type: 'F' | 'J';
  document: string;
  cpf: string | null;
  cnpj: string | null;
  name: string;
  trade_name: string | null;
  email: string;
  phone: string | null;
  address: Record<string, unknown> | null;
  disbursement_method: 'pix_document' | 'bank_account' | null;
  pix_key_document: string | null;
  bank_code: string | null;
  bank_agency: string | null;
  bank_account: string | null;
  bank_account_type: string | null;
  monthly_rate_pct: string | null;
  discount_pct: string | null;
  fixed_discount_brl: string | null;
  floating_days: number | null;
  limit_brl: string | null;
  created_at: Date;
  updated_at: Date;
}

function accountColumns(account: PrimaryAccount): Partial<AssignorRow> {
  return {
    disbursement_method: account.method,
    pix_key_document: account.pixKeyDocument,
    bank_code: account.method === 'bank_account' ? account.code : null,
    bank_agency: account.method === 'bank_account' ? account.agency : null,
    bank_account: account.method === 'bank_account' ? account.account : null,
    bank_account_type: account.method === 'bank_account' ? account.accountType : null,
  };
}

export class AssignorsRepository extends TenantScopedRepository {
  async byId(id: string, lock = false): Promise<AssignorRow | undefined> {
    const query = this.scoped('assignors').where({ id }).first();
    return lock ? query.forUpdate() : query;
  }

  async byDocument(document: string, lock = false): Promise<AssignorRow | undefined> {
    const query = this.scoped('assignors').where({ document }).first();
    return lock ? query.forUpdate() : query;
  }

  async list(limit: number, offset: number): Promise<{ items: AssignorRow[]; total: number }> {
    return paged(() => this.scoped('assignors'), newestFirst(), limit, offset);
  }

  /** Inserts unless the document exists; returns the row either way and whether it was new. */
  async register(input: AssignorInput, account: PrimaryAccount | null): Promise<{ row: AssignorRow; created: boolean }> {
    const inserted: AssignorRow[] = await this.insertOwned('assignors', {
      id: uuidv7(), type: input.type, document: input.document, cpf: input.cpf, cnpj: input.cnpj, name: input.name,
      trade_name: input.tradeName, email: input.email, phone: input.phone,
      address: input.address === null ? null : JSON.stringify(input.address),
      ...(account ? accountColumns(account) : {}),
    }).onConflict(['originator_id', 'document']).ignore().returning('*');
    if (inserted.length > 0) return { row: inserted[0], created: true };
    return { row: (await this.byDocument(input.document, true))!, created: false };
  }

  /** Contract bank rule 5: an account is only set when the assignor has none yet. */
  async setPrimaryAccountIfMissing(id: string, account: PrimaryAccount): Promise<AssignorRow> {
    const [row] = await this.scoped('assignors').where({ id }).whereNull('disbursement_method')
      .update({ ...accountColumns(account), updated_at: this.db.fn.now() }).returning('*');
    return row ?? (await this.byId(id))!;
  }
}
