import { composeNfeKey } from '../../domain/nfe-key';

/** Valid CPF and CNPJ numbers for test data, made with the real check-digit rule. */
function digit(body: number[], weights: number[]): number {
  const rest = body.reduce((sum, d, i) => sum + d * weights[i], 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

let counter = Math.floor(Math.random() * 1_000_000);

export function cpf(): string {
  counter += 1;
  const body = String(100_000_000 + (counter % 800_000_000)).padStart(9, '0').split('').map(Number);
  const d1 = digit(body, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digit([...body, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...body, d1, d2].join('');
}

export function cnpj(): string {
  counter += 1;
  const body = `${String(10_000_000 + (counter % 89_000_000)).padStart(8, '0')}0001`.split('').map(Number);
  const d1 = digit(body, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digit([...body, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...body, d1, d2].join('');
}

export function formatCnpj(value: string): string {
  return value.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
}

let invoiceNumber = Math.floor(Math.random() * 900_000_000);

/**
 * The NF-e fields of a fresh invoice issued by `issuer` (a CNPJ, or `000` + a CPF) in November
 * 2026: a key with its real check digit and the number, serie and issue date that agree with it.
 */
export function nfeOf(issuer: string, overrides: { serie?: number; model?: string } = {}) {
  invoiceNumber += 1;
  const serie = overrides.serie ?? 1;
  return {
    nfe_number: String(invoiceNumber), nfe_serie: String(serie), nfe_issue_date: '2026-11-01',
    nfe_key: composeNfeKey({ yearMonth: '2611', issuer, serie, number: invoiceNumber, code: String(invoiceNumber % 1e8), model: overrides.model }),
  };
}
