/**
 * An oracle for CSV formula escaping, written apart from csv-stringify: where each cell's text
 * starts in a file, and which bytes one file has that another has not.
 */

/** A cell beginning with one of these is run as a formula by Excel, LibreOffice and Google Sheets (OWASP). */
export const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'] as const;
/** csv-stringify's `escape_formulas` also escapes their full-width forms. */
export const FULL_WIDTH_STARTS = ['\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'] as const;

/** What a spreadsheet passes over before the first character it reads: a cell `  =1` is a formula too. */
export const BLANKS = [' ', '\u00A0', '\u200B', '\u3000', '\n'] as const;

export const startsFormula = (text: string): boolean => {
  let i = 0;
  while (i < text.length && (BLANKS as readonly string[]).includes(text[i] as string)) i += 1;
  return [...FORMULA_STARTS, ...FULL_WIDTH_STARTS].some((c) => text.startsWith(c, i));
};

export interface CellStart {
  /** Offset of the cell's first character of text (after an opening quote). */
  at: number;
  /** The cell's text as written (quotes doubled inside a quoted cell), '' for an empty cell. */
  text: string;
}

/** Every cell of an RFC 4180 file with `\n` between records, in order. */
export function cellStarts(csv: string): CellStart[] {
  const cells: CellStart[] = [];
  let i = 0;
  while (i < csv.length) {
    if (csv[i] === '"') {
      let end = i + 1;
      while (end < csv.length && !(csv[end] === '"' && csv[end + 1] !== '"')) end += csv[end] === '"' ? 2 : 1;
      cells.push({ at: i + 1, text: csv.slice(i + 1, end) });
      i = end + 1;
    } else {
      let end = i;
      while (end < csv.length && csv[end] !== ',' && csv[end] !== '\n') end += 1;
      cells.push({ at: i, text: csv.slice(i, end) });
      i = end;
    }
    if (csv[i] !== ',' && csv[i] !== '\n')
      throw new Error(`not CSV: ${JSON.stringify(csv.slice(i, i + 20))} at byte ${i}`);
    i += 1;
  }
  return cells;
}

/**
 * The offsets in `raw` before which `escaped` has one more `'`; throws at the first byte that
 * differs in any other way.
 */
export function insertedQuotes(escaped: string, raw: string): number[] {
  const at: number[] = [];
  let i = 0;
  let j = 0;
  while (i < escaped.length || j < raw.length) {
    if (escaped[i] === raw[j]) {
      i += 1;
      j += 1;
    } else if (escaped[i] === "'") {
      at.push(j);
      i += 1;
    } else {
      throw new Error(
        `the files differ at byte ${i}: ${JSON.stringify(escaped.slice(i, i + 20))}, raw ${JSON.stringify(raw.slice(j, j + 20))}`,
      );
    }
  }
  return at;
}

/** Where a `'` belongs in `raw` for a person: before every cell that begins as a formula. */
export function formulaCells(raw: string): CellStart[] {
  return cellStarts(raw).filter((cell) => startsFormula(cell.text));
}
