/**
 * The report of `crp enroll`: one record per row, written as each row finishes.
 * `.jsonl` (or `.ndjson`): every row, JSON lines, the input of a later `--resume`.
 * `.csv`: only the rows not enrolled, for a person to fix (formulas escaped unless `--raw-csv`).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { EnrollOutcome, EnrollResumeRecord, EnrollStatus } from '../bulk/index.js';
import { UsageError } from './command.js';
import { csvRecord } from './csv-out.js';
import { lineWriter, type LineWriter } from './line-writer.js';

/** One row's line in the report. */
export interface ReportRecord {
  /** Line of the CSV file where the row starts (the header is line 1). */
  line: number;
  partner_location_id: string | undefined;
  status: EnrollStatus;
  /** The error's code (`validation_error`, `conflict`, …), or `bad_row` for a row the CSV could not give. */
  code?: string;
  field?: string;
  message?: string;
  request_id?: string;
}

const CSV_COLUMNS = ['line', 'partner_location_id', 'status', 'code', 'field', 'message'] as const;

/** The rows a person must look at: not enrolled now, before, or in an earlier run. */
export function isProblem(status: EnrollStatus): boolean {
  return status !== 'created' && status !== 'already_enrolled' && status !== 'skipped';
}

export function recordOf(outcome: EnrollOutcome, line: number): ReportRecord {
  const record: ReportRecord = { line, partner_location_id: outcome.partner_location_id, status: outcome.status };
  if (outcome.status === 'created' || outcome.status === 'already_enrolled') {
    if (outcome.requestId) record.request_id = outcome.requestId;
    return record;
  }
  if (outcome.status === 'skipped') return record;
  if (outcome.error) record.code = outcome.error.code;
  if (outcome.status === 'invalid' && outcome.field) record.field = outcome.field;
  record.message = outcome.message;
  const requestId = outcome.error && 'requestId' in outcome.error ? outcome.error.requestId : undefined;
  if (typeof requestId === 'string') record.request_id = requestId;
  return record;
}

export interface ReportWriter {
  write(record: ReportRecord): Promise<void>;
  close(): Promise<void>;
}

/** A report for `path`, its format by extension; `rawCsv`: a `.csv` one with cells as they are (`--raw-csv`). */
export function openReport(path: string, stdout: NodeJS.WritableStream, rawCsv?: boolean): ReportWriter {
  const format = /\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : /\.csv$/i.test(path) ? 'csv' : undefined;
  if (!format) throw new UsageError(`--report ${path}: name a .csv file (the rows not enrolled) or a .jsonl file (every row, for --resume).`);
  const out: LineWriter = lineWriter(path, stdout);
  if (format === 'jsonl') return { write: (record) => out.write(`${JSON.stringify(record)}\n`), close: () => out.close() };
  const csv = csvRecord(rawCsv);
  let started = false;
  return {
    async write(record) {
      if (!started) {
        started = true;
        await out.write(csv(CSV_COLUMNS));
      }
      if (!isProblem(record.status)) return;
      await out.write(csv(CSV_COLUMNS.map((name) => record[name] ?? '')));
    },
    async close() {
      if (!started) await out.write(csv(CSV_COLUMNS));
      await out.close();
    },
  };
}

/** The records of an earlier `.jsonl` report, for `enrollMany({ resume })`. */
export async function* readResume(path: string): AsyncGenerator<EnrollResumeRecord> {
  if (!/\.(jsonl|ndjson)$/i.test(path)) throw new UsageError(`--resume ${path}: give the .jsonl report of an earlier run (a .csv report lists only the rows not enrolled).`);
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n += 1;
    if (!text.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new UsageError(`--resume ${path}: line ${n} is not JSON; give the .jsonl report that crp enroll wrote.`);
    }
    yield record as EnrollResumeRecord;
  }
}
