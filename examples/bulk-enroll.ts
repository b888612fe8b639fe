/**
 * Bulk enrollment from a CSV file with `enrollMany()` of `@crp/partner-sdk/bulk`, and a report of each row
 * that did not enroll (line, store, code, field, message), also written as a CSV.
 * (Operators get the same without code: `npx -p @crp/partner-sdk crp enroll stores.csv --report failures.csv`.)
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 \
 *     npx tsx examples/bulk-enroll.ts [examples/data/stores.csv] [failures.csv]
 *
 * Columns: partner_location_id,name,line1,city,state,postal_code,country,preferred_language.
 * Enrolling is idempotent: a row already enrolled with the same data is "already enrolled", so the
 * file can be fed again after fixing its bad rows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EnrollLocationBody, PartnerClient } from '@crp/partner-sdk';
import { enrollMany, type EnrollProgress } from '@crp/partner-sdk/bulk';
import { runMain } from './support/main.js';
import { parseCsv, toCsv } from './support/csv.js';

export interface RowFailure {
  /** Line of the CSV file (the header is line 1). */
  line: number;
  partner_location_id: string;
  /** The error's code (`validation_error`, `conflict`, …) or the outcome (`not_attempted`). */
  code: string;
  field: string | undefined;
  message: string;
}

export interface EnrollReport {
  total: number;
  enrolled: string[];
  unchanged: string[];
  failed: RowFailure[];
}

/** CSV columns to an enroll body. Nothing is checked here: enrollMany refuses bad rows before sending, naming the field. */
function toBody([id, name, line1, city, state, postal_code, country, language]: string[]): EnrollLocationBody {
  const body = { partner_location_id: id, name, address: { line1, city, state, postal_code, country } };
  return (language ? { ...body, preferred_language: language } : body) as EnrollLocationBody;
}

export async function bulkEnroll(client: PartnerClient, csv: string, onProgress?: (p: EnrollProgress) => void): Promise<EnrollReport> {
  const records = parseCsv(csv).slice(1); // after the header
  const report: EnrollReport = { total: records.length, enrolled: [], unchanged: [], failed: [] };
  await enrollMany(
    client,
    records.map((r) => toBody(r.fields.map((f) => f.trim()))),
    {
      ...(onProgress ? { onProgress } : {}),
      onOutcome(o) {
        const id = o.partner_location_id ?? '';
        if (o.status === 'created') report.enrolled.push(id);
        else if (o.status === 'already_enrolled' || o.status === 'skipped') report.unchanged.push(id);
        else {
          const code = o.error?.code ?? o.status;
          report.failed.push({ line: records[o.index]!.line, partner_location_id: id, code, field: o.status === 'invalid' ? o.field : undefined, message: o.message });
        }
      },
    },
  );
  report.failed.sort((a, b) => a.line - b.line);
  return report;
}

export function formatReport(report: EnrollReport): string {
  const head = `${report.total} rows: ${report.enrolled.length} enrolled, ${report.unchanged.length} already enrolled, ${report.failed.length} failed`;
  return [head, ...report.failed.map((f) => `  line ${String(f.line).padStart(3)}  ${f.partner_location_id.padEnd(16)} ${f.code.padEnd(16)} ${f.field ?? '-'}: ${f.message}`)].join('\n');
}

export function failuresCsv(report: EnrollReport): string {
  return toCsv(['line', 'partner_location_id', 'code', 'field', 'message'], report.failed.map((f) => [f.line, f.partner_location_id, f.code, f.field ?? '', f.message]));
}

export const SAMPLE_CSV = fileURLToPath(new URL('./data/stores.csv', import.meta.url));

runMain(import.meta.url, async (client) => {
  const [input = SAMPLE_CSV, failuresPath = 'enroll-failures.csv'] = process.argv.slice(2);
  const report = await bulkEnroll(client, readFileSync(input, 'utf8'), (p) => process.stderr.write(`\r${p.done}/${p.total} rows`));
  console.log(`\n${formatReport(report)}`);
  if (report.failed.length) {
    writeFileSync(failuresPath, failuresCsv(report));
    console.log(`failed rows written to ${failuresPath}`);
    process.exitCode = 2;
  }
});
