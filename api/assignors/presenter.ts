import type { AssignorRow } from '../../db/repositories/assignors';

export function presentAssignor(row: AssignorRow) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    trade_name: row.trade_name,
    document: row.document,
    cpf: row.cpf,
    cnpj: row.cnpj,
    email: row.email,
    phone: row.phone,
    address: row.address,
    disbursement_method: row.disbursement_method,
    pix_key_document: row.pix_key_document,
    bank: row.disbursement_method === 'bank_account'
      ? { code: row.bank_code, agency: row.bank_agency, account: row.bank_account, type: row.bank_account_type }
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
