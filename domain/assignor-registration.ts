import { parseDocument } from './documents';
import { ValidationFailed } from './errors';

export interface AssignorInput {
  type: 'F' | 'J';
  document: string;
  cpf: string | null;
  cnpj: string | null;
  name: string;
  tradeName: string | null;
  email: string;
  phone: string | null;
  address: Record<string, unknown> | null;
}

export interface BankInput {
  use_document_pix?: boolean | null;
  code?: string | null;
  agency?: string | null;
  account?: string | null;
  type?: string | null;
}

export type PrimaryAccount =
  | { method: 'pix_document'; pixKeyDocument: string }
  | { method: 'bank_account'; pixKeyDocument: string; code: string; agency: string; account: string; accountType: 'CC' | 'SA' | 'CP' };

interface RawAssignor {
  type: 'F' | 'J';
  cpf?: string | null;
  cnpj?: string | null;
  name: string;
  trade_name?: string | null;
  email: string;
  phone?: string | null;
  address?: Record<string, unknown> | null;
}

/**
 * The assignor fields of a request, with documents checked before any write. Type F is
 * identified by its CPF and type J by its CNPJ; the other document, when sent, is kept.
 */
export function readAssignor(raw: RawAssignor, loc: (string | number)[] = ['body']): AssignorInput {
  const cpf = raw.cpf ? parseDocument(raw.cpf, [...loc, 'cpf'], ['cpf']).value : null;
  const cnpj = raw.cnpj ? parseDocument(raw.cnpj, [...loc, 'cnpj'], ['cnpj']).value : null;
  const identifying = raw.type === 'F' ? cpf : cnpj;
  if (!identifying) {
    const field = raw.type === 'F' ? 'cpf' : 'cnpj';
    throw ValidationFailed.field([...loc, field], `Field required for an assignor of type ${raw.type}`, 'missing');
  }
  return {
    type: raw.type,
    document: identifying,
    cpf,
    cnpj,
    name: raw.name,
    tradeName: raw.trade_name ?? null,
    email: raw.email,
    phone: raw.phone ?? null,
    address: raw.address ?? null,
  };
}

const filled = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';
const ACCOUNT_TYPES = new Set(['CC', 'SA', 'CP']);

/**
 * The contract's bank rules 2–4: a complete account is used as sent (even if wrong); anything
 * incomplete silently becomes PIX on the document; the PIX key document is the CNPJ whenever
 * the payload carries one.
 */
export function resolvePrimaryAccount(bank: BankInput, assignor: AssignorInput): PrimaryAccount {
  const pixKeyDocument = assignor.cnpj ?? assignor.cpf!;
  if (bank.use_document_pix === true || !filled(bank.code) || !filled(bank.agency) || !filled(bank.account)) {
    return { method: 'pix_document', pixKeyDocument };
  }
  const accountType = bank.type && ACCOUNT_TYPES.has(bank.type) ? (bank.type as 'CC' | 'SA' | 'CP') : 'CC';
  return { method: 'bank_account', pixKeyDocument, code: bank.code, agency: bank.agency, account: bank.account, accountType };
}
