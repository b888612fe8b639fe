/**
 * The report of `crp enroll`: one record per row, written as each row finishes.
 * `.jsonl` (or `.ndjson`): every row, JSON lines, the input of a later `--resume`.
 * `.csv`: only the rows not enrolled, for a person to fix (formulas escaped unless `--raw-csv`).
 */
import { createWriteStream } from 'node:fs';
import type { EnrollConflict, EnrollOutcome, EnrollStatus } from '../bulk/index.js';
import { UsageError } from './command.js';
import { csvRecord } from './csv-out.js';
import type { OpenFile } from './enroll-files.js';
import { streamWriter, type LineWriter } from './line-writer.js';

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
  /** The row's `contentHash`: `--resume` skips a row only when its own is the same. Absent from older reports. */
  content_hash?: string;
  /** Enrolled by an earlier identical line of the same file in this run: that line (nothing was sent for this one). */
  same_as_line?: number;
  /** For a conflict with an earlier line of the same file: that line. */
  conflicts_with_line?: number;
  /** Enrolled, but its call failed after the service acted: that failure's code; a read of the store confirmed it (the message says so). */
  confirmed_after?: string;
  /** Failed after the service may have acted, and reading the store could not tell: it may exist. Running again is safe. */
  may_be_enrolled?: true;
}

/** Where the lines of a run are: the file's line of each row given to enrollMany, and the `--resume` report. */
export interface RunLines {
  file: string;
  lineOf(index: number): number;
  resume: string | undefined;
}

const CSV_COLUMNS = ['line', 'partner_location_id', 'status', 'code', 'field', 'message'] as const;

/** The rows a person must look at: not enrolled now, before, or in an earlier run. */
export function isProblem(status: EnrollStatus): boolean {
  return status !== 'created' && status !== 'already_enrolled' && status !== 'skipped';
}

export function recordOf(outcome: EnrollOutcome, run: RunLines): ReportRecord {
  const line = run.lineOf(outcome.index);
  const record: ReportRecord = {
    line,
    partner_location_id: outcome.partner_location_id,
    status: outcome.status,
    content_hash: outcome.contentHash,
  };
  if (outcome.status === 'created' || outcome.status === 'already_enrolled') {
    if (outcome.requestId) record.request_id = outcome.requestId;
    if (outcome.sameAs !== undefined) {
      record.same_as_line = run.lineOf(outcome.sameAs);
      record.message = `Same id and content as line ${record.same_as_line}, which enrolled the store in this run: not sent again.`;
    }
    if (outcome.confirmedAfter) {
      record.confirmed_after = outcome.confirmedAfter.code;
      record.message =
        `Its call failed (${outcome.confirmedAfter.message}), after the service had acted: ` +
        `reading the store found it enrolled with this line's name and address.`;
    }
    return record;
  }
  if (outcome.status === 'skipped') return record;
  // A code this version has no class for: the operator reads the service's own word, not the catch-all's.
  if (outcome.error) {
    const serviceCode =
      outcome.error.code === 'unknown_api_error' && 'serviceCode' in outcome.error
        ? outcome.error.serviceCode
        : undefined;
    record.code = typeof serviceCode === 'string' && serviceCode !== '' ? serviceCode : outcome.error.code;
  }
  if (outcome.status === 'invalid' && outcome.field) record.field = outcome.field;
  if (outcome.status === 'failed' && outcome.mayBeEnrolled) record.may_be_enrolled = true;
  record.message = outcome.message;
  if (outcome.status === 'conflict') {
    record.code = 'conflict';
    record.message = conflictMessage(outcome, line, run);
    if (outcome.conflictsWith !== undefined) record.conflicts_with_line = run.lineOf(outcome.conflictsWith);
  }
  const requestId = outcome.error && 'requestId' in outcome.error ? outcome.error.requestId : undefined;
  if (typeof requestId === 'string') record.request_id = requestId;
  return record;
}

/** A conflict told as what to do with the file and `crp` (the SDK's own message names an SDK call). */
function conflictMessage(outcome: EnrollConflict, line: number, run: RunLines): string {
  const id = outcome.partner_location_id ?? '';
  const fix =
    `make line ${line} match it or give the line its own partner_location_id in ${run.file}, then ` +
    `run crp enroll again (it never changes an enrolled store)`;
  if (outcome.conflictsWith !== undefined) {
    const first = run.lineOf(outcome.conflictsWith);
    return (
      `line ${line} has the partner_location_id ${id} of line ${first} with other content, so it was ` +
      `not sent: the first line of an id decides. Fix or delete line ${line} or line ${first} in ` +
      `${run.file}, then run crp enroll again.`
    );
  }
  if (outcome.earlierRun)
    return `${id} was enrolled with other content by the run that ${run.resume ?? 'the --resume report'} reports, so line ${line} was not sent: ${fix}.`;
  return `${id} is already enrolled with a different name or address, so line ${line} was not enrolled: ${fix}.`;
}

export interface ReportWriter {
  write(record: ReportRecord): Promise<void>;
  close(): Promise<void>;
}

/** A report's format, by its extension; a path with neither is refused. */
export function reportFormat(path: string): 'jsonl' | 'csv' {
  const format = /\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : /\.csv$/i.test(path) ? 'csv' : undefined;
  if (!format)
    throw new UsageError(
      `--report ${path}: name a .csv file (the rows not enrolled) or a .jsonl file (every row, for --resume).`,
    );
  return format;
}

/** The writer of a report opened by `openAll`; `rawCsv`: a `.csv` one with cells as they are (`--raw-csv`). */
export function openReport(file: OpenFile, rawCsv?: boolean): ReportWriter {
  const format = reportFormat(file.path);
  const out: LineWriter = streamWriter(createWriteStream('', { fd: file.handle }), true);
  if (format === 'jsonl')
    return { write: (record) => out.write(`${JSON.stringify(record)}\n`), close: () => out.close() };
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
