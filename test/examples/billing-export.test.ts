import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BILLING_COLUMNS, exportBilling, previousMonth } from '../../examples/billing-export.js';
import { parseCsv } from '../../examples/support/csv.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/billing-export.ts', () => {
  let env: ExampleEnv;
  const startExampleEnv = useExampleEnv();

  it('writes one CSV line per store with the service’s counts, across pages, and returns the totals', async () => {
    env = await startExampleEnv();
    env.sandbox.populate(env.apiKey, { locations: 230, reservationsPerLocation: 4 });
    env.sandbox.clock.advance({ days: 20 }); // upcoming visits happen, videos are posted
    const month = env.sandbox.clock.now().toISOString().slice(0, 7);
    expect(month).toBe('2026-12');
    expect(previousMonth(env.sandbox.clock.now())).toBe('2026-11');

    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const totals = await exportBilling(env.client, month, out);
    const [header, ...rows] = parseCsv(chunks.join(''));

    expect(header?.fields).toEqual([...BILLING_COLUMNS]);
    expect(rows.length).toBe(totals.stores);
    expect(totals.stores).toBeGreaterThan(200); // more than one page of 200
    expect(totals.completed_visits).toBeGreaterThan(0);
    expect(totals.videos_published).toBeGreaterThan(0);

    // The same numbers as the service, read independently with another page size.
    const expected = new Map<string, string[]>();
    for await (const row of env.newClient().reports.billingMonthly(month, { limit: 37 })) {
      expected.set(row.partner_location_id, [
        month,
        row.partner_location_id,
        String(row.videos_published),
        String(row.completed_visits),
        String(row.no_shows),
      ]);
    }
    expect(new Map(rows.map((r) => [r.fields[1]!, r.fields]))).toEqual(expected);
    const sum = (column: number) => rows.reduce((n, r) => n + Number(r.fields[column]), 0);
    expect([sum(2), sum(3), sum(4)]).toEqual([totals.videos_published, totals.completed_visits, totals.no_shows]);
  });
});
