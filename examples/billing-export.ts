/**
 * Monthly billing export: every store's billable counts for a month, streamed page by page into a
 * CSV file (flat memory however many stores), with a totals line printed at the end.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 \
 *     npx tsx examples/billing-export.ts [YYYY-MM] [file.csv]
 *
 * The month defaults to the service's current month against the sandbox (its clock is simulated,
 * so "now" is the sandbox's, read from the summary) and to last month in production. The file
 * defaults to examples/output/billing-YYYY-MM.csv (git-ignored).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { PartnerClient } from '@crp/partner-sdk';
import { runMain } from './support/main.js';
import { toCsv } from './support/csv.js';
import { outputPath } from './support/output.js';

export const BILLING_COLUMNS = ['month', 'partner_location_id', 'videos_published', 'completed_visits', 'no_shows'] as const;

export interface BillingTotals {
  month: string;
  stores: number;
  videos_published: number;
  completed_visits: number;
  no_shows: number;
}

/** The month before `now`, as YYYY-MM (UTC). */
export function previousMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/** Write `month`'s billing rows as CSV to `out` (not closed here), one page at a time; returns the totals. */
export async function exportBilling(client: PartnerClient, month: string, out: Writable): Promise<BillingTotals> {
  const totals: BillingTotals = { month, stores: 0, videos_published: 0, completed_visits: 0, no_shows: 0 };
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain'); // respect backpressure
  };
  await write(toCsv(BILLING_COLUMNS, []));
  for await (const page of client.reports.billingMonthly(month, { limit: 200 }).pages()) {
    const rows = page.items.map((r) => [month, r.partner_location_id, r.videos_published, r.completed_visits, r.no_shows]);
    if (rows.length) await write(toCsv(BILLING_COLUMNS, rows).split('\n').slice(1).join('\n'));
    for (const r of page.items) {
      totals.stores++;
      totals.videos_published += r.videos_published;
      totals.completed_visits += r.completed_visits;
      totals.no_shows += r.no_shows;
    }
  }
  return totals;
}

/** The month to export when none is given: the sandbox's current month, or last month in production. */
export async function defaultMonth(client: PartnerClient): Promise<string> {
  if (client.environment === 'sandbox') return (await client.reports.summary()).generated_at.slice(0, 7);
  return previousMonth();
}

runMain(import.meta.url, async (client) => {
  const month = process.argv[2] ?? (await defaultMonth(client));
  const path = process.argv[3] ?? outputPath(`billing-${month}.csv`);
  const out = createWriteStream(path);
  const totals = await exportBilling(client, month, out);
  out.end();
  await once(out, 'finish');
  console.log(`${path}: ${totals.stores} stores, ${totals.videos_published} videos, ${totals.completed_visits} completed visits, ${totals.no_shows} no-shows in ${month}`);
});
