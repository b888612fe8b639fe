/**
 * The CSV that `crp` writes (exports, the enroll report): the one place csv-stringify's options
 * are set, and the `--raw-csv` flag that picks them.
 *
 * Cells carry text that others control (creators' handles, ids from partners' files). A cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by Excel,
 * LibreOffice and Google Sheets (OWASP "CSV injection"). By default csv-stringify's
 * a `'` is written before such a string cell (and before the full-width `＝＋－＠`), so a spreadsheet
 * takes it as text; a number is left as it is (`-3` is a number, not a formula). A spreadsheet
 * passes over leading spaces, no-break and zero-width spaces, ideographic spaces and line feeds
 * before it reads a formula, so the first character after those is the one that counts
 * (csv-stringify's own `escape_formulas` looks at the very first character only).
 * A program reading the file wants the values unchanged: `--raw-csv`.
 */
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null | undefined;

/** The flag, for `parse()` of every command that writes CSV. */
export const RAW_CSV_OPTION = { 'raw-csv': { type: 'boolean' } } as const;

export const RAW_CSV_HELP = `  --raw-csv             CSV cells exactly as the data has them, for a program that reads
                        the file. Without it (for a person opening the file in a spreadsheet)
                        a cell that begins with = + - @, a tab or a carriage return (after any
                        spaces or line feeds) gets a ' in front, so it opens as text instead
                        of running as a formula.
                        JSON lines are never changed.`;

/** One CSV record, line ending included. */
export type CsvRecord = (cells: readonly Cell[]) => string;

/**
 * The record writer for the `--raw-csv` flag's value.
 * @example
 * csvRecord(false)(['=1+2', 3]); // "'=1+2,3\n"
 * csvRecord(true)(['=1+2', 3]);  // "=1+2,3\n"
 */
export function csvRecord(raw: boolean | undefined): CsvRecord {
  if (raw === true) return (cells) => stringify([cells]);
  return (cells) =>
    stringify([cells.map((cell) => (typeof cell === 'string' && FORMULA.test(cell) ? `'${cell}` : cell))]);
}

/** Blanks a spreadsheet passes over (space, NBSP, U+200B, U+3000, LF), then a character that starts a formula. */
const FORMULA = /^[ \u00A0\u200B\u3000\n]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
