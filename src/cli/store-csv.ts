/** Stores from a CSV file (csv-parse, streamed): a header row names the columns, one store per row. */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream';
import { CsvError, parse, type Options } from 'csv-parse';
import type { EnrollLocationBody } from '../schemas/locations.js';
import { SetupError, UsageError, fileProblem } from './command.js';
import { watchBytes } from './enroll-csv-bytes.js';

const REQUIRED = ['partner_location_id', 'name', 'line1', 'city', 'state', 'postal_code', 'country'] as const;
const OPTIONAL = ['preferred_language', 'time_zone'] as const;
export const STORE_COLUMNS = `${REQUIRED.join(',')}[,${OPTIONAL.join(',')}]`;

/** A row of the file: its body to enroll, or why it cannot be one (a broken CSV row, never sent). */
export type StoreRow =
  | { line: number; body: EnrollLocationBody }
  | { line: number; partner_location_id: string | undefined; problem: string };

interface Parsed {
  record: string[];
  /** The line where the record starts (the header is line 1). */
  line: number;
}

/**
 * csv-parse's options for the stores file. A UTF-8 BOM (spreadsheet exports) is dropped; blank
 * lines are skipped. Every line break ends a record, whichever kind it is: left to itself csv-parse
 * takes the first one it meets as the file's only kind, so in a CRLF file with lines appended in an
 * editor (LF) every LF line would melt into its neighbour and a store would go missing.
 */
export const STORES_CSV_OPTIONS = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
  info: true,
  trim: true,
  record_delimiter: ['\r\n', '\n', '\r'],
} as const satisfies Options;

/**
 * The file's records; a file that is not UTF-8, or that csv-parse cannot read (a quote not closed),
 * throws a SetupError naming the line where the record it could not read starts.
 */
async function* records(path: string, cwd: string): AsyncGenerator<Parsed> {
  const parser = parse({ ...STORES_CSV_OPTIONS, record_delimiter: [...STORES_CSV_OPTIONS.record_delimiter] });
  const { tap, lines } = watchBytes(path);
  // pipeline (not pipe) hands a read error (no such file, not UTF-8) to the parser, so the loop reading it throws.
  pipeline(createReadStream(resolve(cwd, path)), tap, parser, () => undefined);
  let end = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      const line = lines.lineOf(end, info.bytes);
      end = info.bytes;
      yield { record, line };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // csv-parse's own line number counts a CRLF inside quotes twice: the line is counted from the
    // bytes. Its `bytes` is where the last record it read ended (one it had not handed over yet included).
    const line = lines.lineFrom(Math.max(end, Number(error.bytes ?? end)));
    const reason = error.message.replace(/ at line \d+/, '').replace(/[.:]$/, '');
    throw new SetupError(
      `${path}: line ${line} cannot be read as CSV (${reason}). Nothing was sent. Fix that line (a quote opened and not closed?), then run crp enroll again.`,
      { cause: error },
    );
  }
}

/** Check the header; the positions of the columns, by name. */
function columnsOf(header: string[], path: string): Map<string, number> {
  const known = new Set<string>([...REQUIRED, ...OPTIONAL]);
  const unknown = header.filter((name) => !known.has(name));
  if (unknown.length)
    throw new UsageError(`${path}: unknown column ${unknown.join(', ')}. The columns are ${STORE_COLUMNS}.`);
  const missing = REQUIRED.filter((name) => !header.includes(name));
  if (missing.length)
    throw new UsageError(`${path}: the header lacks ${missing.join(', ')}. The columns are ${STORE_COLUMNS}.`);
  return new Map(header.map((name, i) => [name, i]));
}

/** Rows in the file (after the header), reading it once; refuses a bad header before anything is sent. */
export async function countStores(path: string, cwd: string): Promise<number> {
  let count = -1;
  try {
    for await (const { record } of records(path, cwd)) {
      if (count === -1) columnsOf(record, path);
      count += 1;
    }
  } catch (error) {
    throw fileProblem(error, cwd, path) ?? error;
  }
  if (count === -1)
    throw new UsageError(`${path} is empty: it needs a header row (${STORE_COLUMNS}) and one row per store.`);
  return count;
}

/** Every row of the file, read as it is needed. */
export async function* readStores(path: string, cwd: string): AsyncGenerator<StoreRow> {
  let columns: Map<string, number> | undefined;
  for await (const { record, line } of records(path, cwd)) {
    if (!columns) {
      columns = columnsOf(record, path);
      continue;
    }
    const cell = (name: string) => {
      const i = columns?.get(name);
      return i === undefined ? undefined : record[i];
    };
    if (record.length !== columns.size) {
      const problem = `the row has ${record.length} fields and the header ${columns.size}; check for a missing field or an unquoted comma`;
      yield { line, partner_location_id: record[columns.get('partner_location_id') ?? 0], problem };
      continue;
    }
    const body: Record<string, unknown> = {
      partner_location_id: cell('partner_location_id'),
      name: cell('name'),
      address: {
        line1: cell('line1'),
        city: cell('city'),
        state: cell('state'),
        postal_code: cell('postal_code'),
        country: cell('country'),
      },
    };
    // Optional columns left empty are not sent; the SDK checks every value before sending.
    for (const name of OPTIONAL) if (cell(name)) body[name] = cell(name);
    yield { line, body: body as EnrollLocationBody };
  }
}
