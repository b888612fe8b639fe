/**
 * Watch bookings and videos as events: new bookings are forwarded to the restaurant's manager
 * (and acknowledged), status changes and new videos are logged. The position is kept in a file, so
 * a restart (or a crash) goes on where it stopped; Ctrl-C or SIGTERM stops it cleanly.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 npx tsx examples/watch-bookings.ts [checkpoint.json]
 *
 * Delivery is at least once: after a crash, the event that was being handled comes again. The
 * handler keeps the ids it has handled (here in memory; in production, in the same transaction as
 * its effect) and skips a repeat.
 */
import type { PartnerClient } from '@crp/partner-sdk';
import { fileCheckpoint, watchEvents, type Checkpoint, type PartnerEvent, type WatchStats } from '@crp/partner-sdk/events';
import { runMain } from './support/main.js';

export interface WatchBookingsOptions {
  checkpoint: Checkpoint;
  signal?: AbortSignal;
  print?: (line: string) => void;
  /** Ids of events already handled (your table of processed events). */
  handled?: Set<string>;
  /** Share of the key's budget for the watcher. @default 0.5 */
  budgetShare?: number;
}

export interface WatchBookingsResult {
  created: number;
  updated: number;
  videos: number;
  forwarded: number;
  /** Events skipped because their id was handled before. */
  repeats: number;
  stats: WatchStats;
}

export async function watchBookings(client: PartnerClient, options: WatchBookingsOptions): Promise<WatchBookingsResult> {
  const print = options.print ?? console.log;
  const handled = options.handled ?? new Set<string>();
  const result = { created: 0, updated: 0, videos: 0, forwarded: 0, repeats: 0 };
  const watcher = watchEvents(client, {
    checkpoint: options.checkpoint,
    budgetShare: options.budgetShare ?? 0.5,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const event of watcher) {
    if (handled.has(event.id)) {
      result.repeats++;
      continue;
    }
    await handle(client, event, print, result);
    handled.add(event.id);
  }
  print(`stopped: ${result.created} new bookings (${result.forwarded} forwarded), ${result.updated} changes, ${result.videos} videos; ${watcher.stats.calls} calls`);
  return { ...result, stats: watcher.stats };
}

async function handle(client: PartnerClient, event: PartnerEvent, print: (line: string) => void, result: Omit<WatchBookingsResult, 'stats'>): Promise<void> {
  switch (event.type) {
    case 'reservation.created': {
      result.created++;
      const b = event.data;
      print(`new booking ${b.reservation_id} at ${b.partner_location_id}: ${b.status}, party of ${b.party_size}, ${b.creator.handle}`);
      // Open bookings go to the restaurant; the acknowledgement comes back as a reservation.updated.
      if (b.acknowledged_kind === null && (b.status === 'pending' || b.status === 'confirmed')) {
        await client.reservations.acknowledge(b.reservation_id, 'forwarded_to_manager');
        result.forwarded++;
      }
      return;
    }
    case 'reservation.updated': {
      result.updated++;
      const changes = Object.entries(event.previous).map(([field, before]) => `${field} ${String(before)} -> ${String(event.data[field as keyof typeof event.previous])}`);
      print(`booking ${event.data.reservation_id}: ${changes.join(', ')}`);
      return;
    }
    case 'video.published':
      result.videos++;
      print(`video for ${event.partner_location_id} on ${event.data.platform}: ${event.data.url}`);
      return;
  }
}

runMain(import.meta.url, async (client) => {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  await watchBookings(client, { checkpoint: fileCheckpoint(process.argv[2] ?? '.crp-events.json'), signal: controller.signal });
});
