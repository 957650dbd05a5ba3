export interface CsvStyle {
  delimiter: ',' | ';';
  /** Quote every field, not only those that need it (what spreadsheets in pt-BR expect). */
  quoteAll: boolean;
}

export const RFC4180: CsvStyle = { delimiter: ',', quoteAll: false };

/** A negative amount starts with a minus and is no formula: it stays a number for the spreadsheet. */
const PLAIN_NUMBER = /^-\d+(?:[.,]\d+)?$/;

/**
 * RFC 4180 quoting, and OWASP's CSV-injection defence: a field that begins with = + - @ tab or CR, or
 * holds one right after a `,` or `;` (a semicolon locale's spreadsheet splits cells there), is
 * prefixed with ' so no spreadsheet runs it as a formula.
 */
export function csvField(value: unknown, style: CsvStyle = RFC4180): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/(?:^|[,;])[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  const needsQuotes = style.quoteAll || /["\r\n]/.test(text) || text.includes(style.delimiter);
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: unknown[], style: CsvStyle = RFC4180): string => values.map((value) => csvField(value, style)).join(style.delimiter);
