/**
 * Sync bookings: walk every booking of every store with `for await`, hand each new one to your
 * system, acknowledge it, and checkpoint the cursor after each page so that a crash (or a deploy)
 * resumes where it stopped instead of starting over.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 npx tsx examples/sync-bookings.ts [checkpoint.json (default: examples/output/sync-checkpoint.json)]
 *
 * Delivery is at least once: a crash in the middle of a page replays that page on resume. The
 * handler therefore skips bookings that are already acknowledged (the service says so in
 * `acknowledged_kind`), which makes a replay harmless.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { PartnerClient, Reservation } from '@crp/partner-sdk';
import { runMain } from './support/main.js';
import { outputPath } from './support/output.js';

/** Where the sync keeps its position. A file here; a database row in production. */
export interface Checkpoint {
  /** The cursor of the first page not yet fully handled, or undefined to start from the beginning. */
  load(): Promise<string | undefined>;
  save(cursor: string | undefined): Promise<void>;
}

/** A checkpoint in a JSON file, written atomically (write a temp file, then rename). */
export function fileCheckpoint(path: string): Checkpoint & { clear(): void } {
  return {
    async load() {
      if (!existsSync(path)) return undefined;
      const saved = JSON.parse(readFileSync(path, 'utf8')) as { cursor?: string };
      return saved.cursor;
    },
    async save(cursor) {
      writeFileSync(`${path}.tmp`, JSON.stringify({ cursor, saved_at: new Date().toISOString() }));
      renameSync(`${path}.tmp`, path);
    },
    clear: () => rmSync(path, { force: true }),
  };
}

export interface SyncOptions {
  checkpoint: Checkpoint;
  /** Your side: store the booking, notify the restaurant… Called once per new booking (again after a crash mid-page). */
  onBooking: (booking: Reservation) => void | Promise<void>;
  /** Page size. @default 100 */
  pageSize?: number;
  print?: (line: string) => void;
}

export interface SyncResult {
  /** Bookings seen in this run (every status, acknowledged or not). */
  seen: number;
  /** Bookings handed to `onBooking` and acknowledged in this run. */
  acknowledged: number;
  /** Pages walked in this run. */
  pages: number;
  /** True when this run started from a saved cursor. */
  resumed: boolean;
  /** Bookings per store seen in this run. */
  perStore: Record<string, number>;
}

export async function syncBookings(client: PartnerClient, options: SyncOptions): Promise<SyncResult> {
  const print = options.print ?? console.log;
  const start = await options.checkpoint.load();
  const result: SyncResult = { seen: 0, acknowledged: 0, pages: 0, resumed: start !== undefined, perStore: {} };
  print(start ? `resuming from a saved cursor` : 'starting from the first booking');

  // The same filters on every run: a cursor is only valid for the list and filters it came from.
  const list = client.reservations.list({ limit: options.pageSize ?? 100, ...(start ? { cursor: start } : {}) });
  for await (const page of list.pages()) {
    result.pages++;
    for (const booking of page.items) {
      result.seen++;
      result.perStore[booking.partner_location_id] = (result.perStore[booking.partner_location_id] ?? 0) + 1;
      if (booking.acknowledged_kind !== null) continue; // handled before (or by someone else)
      await options.onBooking(booking);
      await client.reservations.acknowledge(booking.reservation_id, 'forwarded_to_manager');
      result.acknowledged++;
    }
    // Every booking of this page is handled: the next run may start after it. The last page has
    // no next cursor, so the checkpoint stays at that page's start: the next run re-reads it
    // (skipping what is acknowledged) and then picks up bookings that arrived since.
    if (page.nextCursor) await options.checkpoint.save(page.nextCursor);
    print(`page ${result.pages}: ${page.items.length} bookings, ${result.acknowledged} acknowledged so far`);
  }
  print(`done: ${result.seen} bookings across ${Object.keys(result.perStore).length} stores, ${result.acknowledged} acknowledged`);
  return result;
}

runMain(import.meta.url, async (client) => {
  const checkpoint = fileCheckpoint(process.argv[2] ?? outputPath('sync-checkpoint.json'));
  await syncBookings(client, {
    checkpoint,
    onBooking: (b) => console.log(`  new booking ${b.reservation_id} at ${b.partner_location_id}: ${b.status}, party of ${b.party_size}`),
  });
});
