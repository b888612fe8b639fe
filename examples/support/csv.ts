/**
 * CSV for the examples, on the same libraries `crp` uses (csv-parse, csv-stringify): reading a
 * stores file with each record's line, and writing a file a person opens in a spreadsheet.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

export interface CsvRecord {
  /** 1-based line number where the record starts (a quoted field may span lines). */
  line: number;
  fields: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  const rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as Array<{
    record: string[];
    info: { lines: number };
  }>;
  // info.lines is the line the record ends on; count back the line breaks inside its quoted fields.
  const breaksIn = (fields: string[]) => fields.reduce((n, f) => n + (f.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
  return rows.map(({ record, info }) => ({ line: info.lines - breaksIn(record), fields: record }));
}

/**
 * CSV text with a header row. A cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return
 * gets a `'` in front (csv-stringify's `escape_formulas`), so a spreadsheet shows it as text
 * instead of running it: the cells carry data others control (store names, creators' handles).
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return stringify([header, ...rows], { escape_formulas: true });
}
