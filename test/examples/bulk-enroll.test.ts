import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EnrollProgress } from '@crp/partner-sdk/bulk';
import { SAMPLE_CSV, bulkEnroll, failuresCsv, formatReport } from '../../examples/bulk-enroll.js';
import { parseCsv } from '../../examples/support/csv.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/bulk-enroll.ts', () => {
  let env: ExampleEnv;
  const startExampleEnv = useExampleEnv();

  it('enrolls the good rows of the sample CSV through enrollMany and reports every bad row with its line, code and field', async () => {
    env = await startExampleEnv();
    // Already enrolled under another name: the service answers 409 for that row.
    await env.client.locations.enroll({
      partner_location_id: 'den-larimer-11',
      name: 'Larimer Tapas (old name)',
      address: { line1: '1400 Larimer St', city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' },
    });
    const progress: EnrollProgress[] = [];
    const report = await bulkEnroll(env.client, readFileSync(SAMPLE_CSV, 'utf8'), (p) => progress.push(p));

    expect(report.total).toBe(12);
    const conflict = report.failed.find((f) => f.code === 'conflict' && f.partner_location_id === 'sf-mission-01');
    // Lines 2 and 10 enroll the same id with two names: the first line decides, line 10 is a conflict, never sent.
    expect(conflict?.line).toBe(10);
    expect(report.enrolled.sort()).toEqual(
      ['aus-congress-10', 'la-sawtelle-05', 'oak-broadway-04', 'sea-pike-03', 'sf-mission-01', 'sf-sunset-02'].sort(),
    );
    expect(
      report.failed
        .filter((f) => f !== conflict)
        .map(({ line, partner_location_id, code, field }) => ({ line, partner_location_id, code, field })),
    ).toEqual([
      { line: 7, partner_location_id: 'pdx-alberta-06', code: 'validation_error', field: 'address.country' },
      { line: 8, partner_location_id: 'nyc-mott-07', code: 'validation_error', field: 'name' },
      { line: 9, partner_location_id: 'chi-clark-08', code: 'validation_error', field: 'preferred_language' },
      { line: 11, partner_location_id: 'bos-hanover-09', code: 'validation_error', field: 'address.postal_code' },
      { line: 13, partner_location_id: 'den-larimer-11', code: 'conflict', field: undefined },
    ]);
    expect(conflict?.message).toContain('client.locations.update("sf-mission-01"');
    // Bad rows and line 10 are refused before sending: only the 7 others (and the set-up call) reached the service.
    expect(env.sandbox.requestCount({ method: 'POST', path: '/partner/v1/locations' })).toBe(8);
    expect(env.sandbox.inspect.store(env.apiKey, 'oak-broadway-04')?.name).toBe('Broadway Pho, Oakland');

    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(progress.at(-1)).toMatchObject({ total: 12, counts: { invalid: 4, conflict: 2 } });

    const text = formatReport(report);
    expect(text).toMatch(/^12 rows: 6 enrolled, 0 already enrolled, 6 failed/);
    expect(text).toMatch(/line +7 +pdx-alberta-06 +validation_error +address\.country: /);
    expect(text).toMatch(
      /line +13 +den-larimer-11 +conflict +-: den-larimer-11 is already enrolled with a different name or address/,
    );
    const csv = parseCsv(failuresCsv(report));
    expect(csv[0]?.fields).toEqual(['line', 'partner_location_id', 'code', 'field', 'message']);
    expect(csv.slice(1).map((r) => Number(r.fields[0]))).toEqual(report.failed.map((f) => f.line));

    // Feeding the same file again is safe: the good rows are "already enrolled".
    const again = await bulkEnroll(env.client, readFileSync(SAMPLE_CSV, 'utf8'));
    expect(again.enrolled).toEqual([]);
    expect(again.unchanged).toHaveLength(6);
  });
});
