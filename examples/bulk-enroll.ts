/**
 * Bulk enrollment from a CSV file, a few stores at a time, with a progress bar and a final report
 * of what failed and why (row, store, error code, field, message), also written as a CSV.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 \
 *     npx tsx examples/bulk-enroll.ts [examples/data/stores.csv] [failures.csv]
 *
 * Columns: partner_location_id,name,line1,city,state,postal_code,country,preferred_language
 * (preferred_language may be empty). Enrolling is idempotent: a row already enrolled with the same
 * data counts as "unchanged", so the file can be fed again after fixing its bad rows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isPartnerError, type EnrollLocationBody, type PartnerClient } from '@crp/partner-sdk';
import { runMain } from './support/main.js';
import { parseCsv, toCsv } from './support/csv.js';

const COLUMNS = ['partner_location_id', 'name', 'line1', 'city', 'state', 'postal_code', 'country', 'preferred_language'] as const;

export interface RowFailure {
  /** Line of the CSV file (the header is line 1). */
  line: number;
  partner_location_id: string;
  /** `validation_error`, `conflict`, … or `bad_row` / `duplicate_row` for rows never sent. */
  code: string;
  /** The field at fault, e.g. `address.country`, when the error names one. */
  field: string | undefined;
  message: string;
}

export interface EnrollReport {
  total: number;
  enrolled: string[];
  unchanged: string[];
  failed: RowFailure[];
}

export interface BulkEnrollOptions {
  /** Stores enrolled at the same time. The client's rate budget keeps any number safe. @default 4 */
  concurrency?: number;
  /** Progress, called after every row: draw a bar, log, … @default a bar on stderr */
  onProgress?: (done: number, total: number, failed: number) => void;
}

/** Turn CSV text into enroll bodies; rows that cannot be one are failures that are never sent. */
export function readStores(csv: string): { rows: Array<{ line: number; body: EnrollLocationBody }>; failed: RowFailure[] } {
  const [header, ...records] = parseCsv(csv);
  if (!header || COLUMNS.some((column, i) => header.fields[i]?.trim() !== column)) {
    throw new Error(`The CSV header must be: ${COLUMNS.join(',')}`);
  }
  const rows: Array<{ line: number; body: EnrollLocationBody }> = [];
  const failed: RowFailure[] = [];
  const firstLine = new Map<string, number>();
  for (const { line, fields } of records) {
    const id = fields[0]?.trim() ?? '';
    if (fields.length !== COLUMNS.length) {
      failed.push({ line, partner_location_id: id, code: 'bad_row', field: undefined, message: `expected ${COLUMNS.length} columns, found ${fields.length}` });
      continue;
    }
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      failed.push({ line, partner_location_id: id, code: 'duplicate_row', field: 'partner_location_id', message: `the same store is on line ${seen}; one row per store` });
      continue;
    }
    firstLine.set(id, line);
    const [, name, line1, city, state, postal_code, country, language] = fields.map((f) => f.trim()) as string[] as [string, string, string, string, string, string, string, string];
    rows.push({
      line,
      body: {
        partner_location_id: id,
        name,
        address: { line1, city, state, postal_code, country },
        // Untyped input: let the SDK check it (it refuses 'fr' before sending, with the field name).
        ...(language ? { preferred_language: language as EnrollLocationBody['preferred_language'] } : {}),
      },
    });
  }
  return { rows, failed };
}

export async function bulkEnroll(client: PartnerClient, csv: string, options: BulkEnrollOptions = {}): Promise<EnrollReport> {
  const { rows, failed } = readStores(csv);
  const report: EnrollReport = { total: rows.length + failed.length, enrolled: [], unchanged: [], failed };
  const progress = options.onProgress ?? progressBar();
  let done = failed.length;
  progress(done, report.total, report.failed.length);

  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const { line, body } = rows[next++]!;
      try {
        const { response } = await client.locations.enroll(body).withResponse();
        (response.status === 201 ? report.enrolled : report.unchanged).push(body.partner_location_id);
      } catch (error) {
        if (!isPartnerError(error)) throw error; // a bug, not a bad row
        const field = 'field' in error && typeof error.field === 'string' ? error.field : undefined;
        report.failed.push({ line, partner_location_id: body.partner_location_id, code: error.code, field, message: error.message });
      }
      progress(++done, report.total, report.failed.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  report.failed.sort((a, b) => a.line - b.line);
  return report;
}

/** A one-line progress bar redrawn in place on a terminal, or a line every 10% otherwise. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr, width = 30): (done: number, total: number, failed: number) => void {
  let lastTenth = -1;
  return (done, total, failed) => {
    const ratio = total === 0 ? 1 : done / total;
    const text = `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, '.')}] ${done}/${total} rows, ${failed} failed`;
    if (stream.isTTY) {
      stream.write(`\r${text}${done === total ? '\n' : ''}`);
    } else if (Math.floor(ratio * 10) !== lastTenth || done === total) {
      lastTenth = Math.floor(ratio * 10);
      stream.write(`${text}\n`);
    }
  };
}

export function formatReport(report: EnrollReport): string {
  const lines = [
    `${report.total} rows: ${report.enrolled.length} enrolled, ${report.unchanged.length} already enrolled, ${report.failed.length} failed`,
  ];
  for (const f of report.failed) {
    lines.push(`  line ${String(f.line).padStart(3)}  ${(f.partner_location_id || '(no id)').padEnd(16)} ${f.code.padEnd(16)} ${f.field ?? '-'}: ${f.message}`);
  }
  return lines.join('\n');
}

export function failuresCsv(report: EnrollReport): string {
  return toCsv(
    ['line', 'partner_location_id', 'code', 'field', 'message'],
    report.failed.map((f) => [String(f.line), f.partner_location_id, f.code, f.field ?? '', f.message]),
  );
}

export const SAMPLE_CSV = fileURLToPath(new URL('./data/stores.csv', import.meta.url));

runMain(import.meta.url, async (client) => {
  const [input = SAMPLE_CSV, failuresPath = 'enroll-failures.csv'] = process.argv.slice(2);
  const report = await bulkEnroll(client, readFileSync(input, 'utf8'));
  console.log(formatReport(report));
  if (report.failed.length) {
    writeFileSync(failuresPath, failuresCsv(report));
    console.log(`failed rows written to ${failuresPath}`);
    process.exitCode = 2;
  }
});
