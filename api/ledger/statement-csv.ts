import type { Money } from '../../domain/money';
import type { StatementLine } from '../../domain/ledger/statement';
import { csvLine, CsvStyle } from '../http/csv';

export type StatementLanguage = 'en' | 'pt-BR';

interface Wording {
  style: CsvStyle;
  columns: string[];
  opening: string;
  entry: string;
  closing: string;
  direction: Record<StatementLine['direction'], string>;
  money: (amount: Money) => string;
}

const WORDING: Record<StatementLanguage, Wording> = {
  en: {
    style: { delimiter: ',', quoteAll: true },
    columns: ['line', 'posted_at', 'transaction_id', 'kind', 'direction', 'amount', 'balance'],
    opening: 'opening_balance', entry: 'entry', closing: 'closing_balance',
    direction: { debit: 'debit', credit: 'credit' },
    money: (amount) => amount.toString(),
  },
  // A pt-BR spreadsheet reads the comma as the decimal mark, hence the semicolon between fields.
  'pt-BR': {
    style: { delimiter: ';', quoteAll: true },
    columns: ['linha', 'data_lancamento', 'transacao_id', 'tipo', 'natureza', 'valor', 'saldo'],
    opening: 'saldo_inicial', entry: 'lancamento', closing: 'saldo_final',
    direction: { debit: 'debito', credit: 'credito' },
    money: (amount) => amount.toString().replace('.', ','),
  },
};

/** The statement: opening balance, each posted entry with the balance it leaves, closing balance. */
export function statementCsv(language: StatementLanguage, period: { from: Date | null; to: Date }, opening: Money, lines: StatementLine[], closing: Money): string {
  const w = WORDING[language];
  const rows = [
    w.columns,
    [w.opening, period.from?.toISOString() ?? '', '', '', '', '', w.money(opening)],
    ...lines.map((line) => [w.entry, line.postedAt.toISOString(), line.transactionId, line.kind, w.direction[line.direction], w.money(line.amount), w.money(line.balance)]),
    [w.closing, period.to.toISOString(), '', '', '', '', w.money(closing)],
  ];
  return `${rows.map((row) => csvLine(row, w.style)).join('\r\n')}\r\n`;
}
