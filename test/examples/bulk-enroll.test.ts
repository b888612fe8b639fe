import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_CSV, bulkEnroll, failuresCsv, formatReport, progressBar } from '../../examples/bulk-enroll.js';
import { parseCsv } from '../../examples/support/csv.js';
import { startExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/bulk-enroll.ts', () => {
  let env: ExampleEnv;
  afterEach(() => env?.close());

  it('enrolls the good rows of the sample CSV and reports every bad row with its line, code and field', async () => {
    env = await startExampleEnv();
    // Already enrolled under another name: the service answers 409 for that row.
    await env.client.locations.enroll({
      partner_location_id: 'den-larimer-11',
      name: 'Larimer Tapas (old name)',
      address: { line1: '1400 Larimer St', city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' },
    });
    const progress: Array<[number, number, number]> = [];
    const report = await bulkEnroll(env.client, readFileSync(SAMPLE_CSV, 'utf8'), { onProgress: (...call) => progress.push(call) });

    expect(report.total).toBe(12);
    expect(report.enrolled.sort()).toEqual(['aus-congress-10', 'la-sawtelle-05', 'oak-broadway-04', 'sea-pike-03', 'sf-mission-01', 'sf-sunset-02']);
    expect(report.failed.map(({ line, partner_location_id, code, field }) => ({ line, partner_location_id, code, field }))).toEqual([
      { line: 7, partner_location_id: 'pdx-alberta-06', code: 'validation_error', field: 'address.country' },
      { line: 8, partner_location_id: 'nyc-mott-07', code: 'validation_error', field: 'name' },
      { line: 9, partner_location_id: 'chi-clark-08', code: 'validation_error', field: 'preferred_language' },
      { line: 10, partner_location_id: 'sf-mission-01', code: 'duplicate_row', field: 'partner_location_id' },
      { line: 11, partner_location_id: 'bos-hanover-09', code: 'bad_row', field: undefined },
      { line: 13, partner_location_id: 'den-larimer-11', code: 'conflict', field: 'partner_location_id' },
    ]);
    // Bad rows are refused before sending: only the 7 well-formed ones (and the set-up call) reached the service.
    expect(env.sandbox.requestCount({ method: 'POST', path: '/partner/v1/locations' })).toBe(8);
    expect(env.sandbox.inspect.store(env.apiKey, 'oak-broadway-04')?.name).toBe('Broadway Pho, Oakland');

    expect(progress.at(-1)).toEqual([12, 12, 6]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));

    const text = formatReport(report);
    expect(text).toMatch(/^12 rows: 6 enrolled, 0 already enrolled, 6 failed/);
    expect(text).toMatch(/line +7 +pdx-alberta-06 +validation_error +address\.country: /);
    expect(text).toMatch(/line +11 +bos-hanover-09 +bad_row +-: expected 8 columns, found 5/);
    const csv = parseCsv(failuresCsv(report));
    expect(csv[0]?.fields).toEqual(['line', 'partner_location_id', 'code', 'field', 'message']);
    expect(csv.slice(1).map((r) => r.fields[1])).toEqual(['pdx-alberta-06', 'nyc-mott-07', 'chi-clark-08', 'sf-mission-01', 'bos-hanover-09', 'den-larimer-11']);

    // Feeding the same file again is safe: the good rows are "already enrolled".
    const again = await bulkEnroll(env.client, readFileSync(SAMPLE_CSV, 'utf8'), { onProgress: () => {} });
    expect(again.enrolled).toEqual([]);
    expect(again.unchanged).toHaveLength(6);
  });

  it('draws a progress bar in place on a terminal and prints every 10% otherwise', () => {
    const writes: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, write: (text: string) => writes.push(text) }) as unknown as NodeJS.WriteStream;
    const bar = progressBar(stream(true), 10);
    bar(5, 10, 1);
    expect(writes.at(-1)).toBe('\r[#####.....] 5/10 rows, 1 failed');
    writes.length = 0;
    const plain = progressBar(stream(false), 10);
    for (let i = 0; i <= 100; i++) plain(i, 100, 0);
    expect(writes).toHaveLength(11);
    expect(writes.at(-1)).toBe('[##########] 100/100 rows, 0 failed\n');
  });
});
