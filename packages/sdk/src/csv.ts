/**
 * CSV text (RFC 4180): fields with a comma, a quote, CR or LF are quoted, quotes doubled; rows end
 * in CRLF. Cells that a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a
 * tab or CR) get a leading apostrophe (OWASP "CSV injection"), so a buyer's nickname such as
 * `=HYPERLINK(...)` stays text. Numbers are written as they are (a negative number is not text a
 * user wrote).
 */

/** One cell: a string (guarded and quoted as needed), a number, or null/undefined (empty). */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** The CSV text of one cell. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text of `rows` (the header first), each row ending in CRLF. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
