/**
 * Case enroll-many, one run per process: the stores of a CSV file (csv-parse, streamed) through
 * the BUILT SDK's `enrollMany()`. Reports the outcomes, the wall time and the
 * process's peak RSS (its high-water mark since start, so each run gets a fresh process).
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { EnrollLocationBody } from '@crp/partner-sdk';
import { serveParent } from '../lib/children.js';
import { loadBulk, loadSdk } from '../lib/paths.js';
import { now } from '../lib/stats.js';

const { PartnerClient } = await loadSdk();
const { enrollMany } = await loadBulk();

interface Job {
  url: string;
  key: string;
  csv: string;
}

/** CSV rows as enroll bodies; a short row leaves fields out, which the SDK refuses before sending. */
async function* stores(path: string): AsyncGenerator<EnrollLocationBody> {
  const rows = createReadStream(path).pipe(parse({ columns: true, relax_column_count: true }));
  for await (const r of rows as AsyncIterable<Record<string, string | undefined>>) {
    yield {
      partner_location_id: r.partner_location_id,
      name: r.name,
      address: { line1: r.line1, city: r.city, state: r.state, postal_code: r.postal_code, country: r.country },
    } as EnrollLocationBody;
  }
}

serveParent({
  enroll: async (m) => {
    const { url, key, csv } = m.job as Job;
    const client = new PartnerClient({ apiKey: key, baseUrl: url });
    let rssSampled = 0;
    let lastError = '';
    const started = now();
    const summary = await enrollMany(client, stores(csv), {
      onOutcome: (o) => {
        if (o.status === 'failed') lastError = o.message;
      },
      onProgress: ({ done }) => {
        if (done % 500 === 0) rssSampled = Math.max(rssSampled, process.memoryUsage.rss());
      },
    });
    const wallMs = now() - started;
    await client.close();
    // maxRSS is in kilobytes.
    return { ...summary, wallMs, peakRss: process.resourceUsage().maxRSS * 1024, rssSampled, lastError };
  },
});
