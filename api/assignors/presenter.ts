import type { AssignorRow } from '../../db/repositories/assignors';
import type { Schema } from '../openapi/contract-types';

export function presentAssignor(row: AssignorRow): Schema<'Assignor'> {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    trade_name: row.tradeName,
    document: row.document,
    cpf: row.cpf,
    cnpj: row.cnpj,
    email: row.email,
    phone: row.phone,
    address: row.address,
    disbursement_method: row.disbursementMethod,
    pix_key_document: row.pixKeyDocument,
    bank: row.disbursementMethod === 'bank_account'
      ? { code: row.bankCode, agency: row.bankAgency, account: row.bankAccount, type: row.bankAccountType }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
