/**
 * A service whose history goes back under the checkpoint: the sandbox reset through its control
 * API (as `crp-sandbox` does it: the same key stays valid, for a new empty account, and the
 * service's clock is back at its start), over a real port, with the watcher running or stopped
 * across it. The watcher notices (the service's clock well before the latest time it saw, the
 * booking list shorter than its saved position, remembered bookings gone), forgets what it
 * remembered, and delivers everything after the reset: every booking there is, every change.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  fileCheckpoint,
  memoryCheckpoint,
  watchEvents,
  type PartnerEvent,
  type WatchOptions,
  type Watcher,
} from '../../src/events/index.js';
import { REWOUND } from '../../src/events/history.js';
import { WatchState } from '../../src/events/state.js';
import type { PopulateOptions } from '../../src/testing/index.js';
import { coverage } from './coverage.js';
import { type Service, startService } from './reset-service.js';
import { bookingFamily } from '../../src/events/bookings.js';

const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'crp-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `checkpoint-${++n}.json`);

/** Every event until the client's clock passes `until` (the watcher is stopped at a wait). */
async function runUntil(
  service: Service,
  options: Omit<WatchOptions, 'signal'>,
  until: number,
  events: PartnerEvent[],
  onWait?: () => Promise<void>,
): Promise<Watcher> {
  const controller = new AbortController();
  const watcher = watchEvents(service.client, { ...options, signal: controller.signal });
  service.onWait = async () => {
    await onWait?.();
    if (service.client.clock.now() >= until) controller.abort();
  };
  for await (const event of watcher) events.push(event);
  return watcher;
}

/** What the sandbox holds after the reset (up to `upTo`), each delivered after it: every booking, every video, every change. */
function expectAllDelivered(service: Service, after: PartnerEvent[], upTo: number): void {
  const { emulator, key } = service;
  const created = new Set(after.filter((e) => e.type === 'reservation.created').map((e) => e.data.reservation_id));
  const bookings = emulator.inspect
    .reservations(key)
    .filter((b) => Date.parse(b.created_at) <= upTo)
    .map((b) => b.reservation_id);
  const videos = emulator.inspect
    .stores(key)
    .flatMap((s) => emulator.inspect.videos(key, s.partner_location_id).map((v) => v.video_id));
  const published = new Set(after.flatMap((e) => (e.type === 'video.published' ? [e.data.video_id] : [])));
  const changes = emulator.inspect.changes(key);
  const report = coverage(changes, after, upTo);
  expect({
    bookings: bookings.filter((id) => !created.has(id)),
    videos: videos.filter((id) => !published.has(id)),
    changes: report.missing.length,
  }).toEqual({ bookings: [], videos: [], changes: 0 });
  expect(bookings.length).toBeGreaterThan(10);
  expect(report.changes).toBeGreaterThan(20);
}

const OPTIONS = { minInterval: 10 * 60_000, maxInterval: HOUR, maxLag: 2 * HOUR };
const STORES: PopulateOptions = { locations: 8, reservationsPerLocation: 4 };

describe('a sandbox reset under the checkpoint', () => {
  let service: Service | undefined;
  afterEach(() => service?.close());

  it.each(['beginning', 'now'] as const)(
    'while the watcher runs (startFrom %s): noticed by the service clock, and every change in the 48 simulated hours after it is delivered',
    { timeout: 120_000 },
    async (startFrom) => {
      service = await startService({ seed: 5, visitsPerWeek: 10 });
      const s = service;
      s.emulator.populate(s.key, STORES);
      const start = s.client.clock.now();
      const events: PartnerEvent[] = [];
      let atReset = -1;
      const watcher = await runUntil(
        s,
        { checkpoint: fileCheckpoint(fresh()), startFrom, ...OPTIONS },
        start + 72 * HOUR,
        events,
        async () => {
          if (atReset < 0 && s.client.clock.now() >= start + 24 * HOUR) {
            atReset = events.length;
            await s.reset(STORES);
            // The sync after it fails part-way at first: the poll after that must not take it for a silent first sync.
            s.emulator.faults.next({ status: 503, times: 12, path: '/partner/v1/reservations' });
          }
        },
      );
      expect(atReset).toBeGreaterThan(0);
      expect(watcher.stats.errors).toBeGreaterThan(0);
      expect(watcher.stats).toMatchObject({ historyResets: 1, lastHistoryReset: REWOUND.clock });
      expectAllDelivered(
        s,
        events.slice(atReset),
        s.emulator.clock.now().getTime() - OPTIONS.maxLag - OPTIONS.maxInterval,
      );
    },
  );

  it.each(['beginning', 'now'] as const)(
    'while the watcher is stopped (startFrom %s): noticed when it starts again, and every change after it is delivered',
    { timeout: 120_000 },
    async (startFrom) => {
      service = await startService({ seed: 6, visitsPerWeek: 10 });
      const s = service;
      s.emulator.populate(s.key, STORES);
      const path = fresh();
      const start = s.client.clock.now();
      await runUntil(s, { checkpoint: fileCheckpoint(path), startFrom, ...OPTIONS }, start + 24 * HOUR, []);
      await s.reset(STORES);
      const after: PartnerEvent[] = [];
      // What exists after the reset is new to the loop: delivered whatever startFrom said about the first start.
      const watcher = await runUntil(
        s,
        { checkpoint: fileCheckpoint(path), startFrom, ...OPTIONS },
        start + 72 * HOUR,
        after,
      );
      expect(watcher.stats).toMatchObject({ historyResets: 1, lastHistoryReset: REWOUND.clock });
      expect((await WatchState.load(fileCheckpoint(path))).resets).toBe(1);
      expectAllDelivered(s, after, s.emulator.clock.now().getTime() - OPTIONS.maxLag - OPTIONS.maxInterval);
    },
  );

  it('minutes after the start (the clock barely went back): noticed by the booking list, shorter than the saved position', {
    timeout: 60_000,
  }, async () => {
    service = await startService({ seed: 7, visitsPerWeek: 10 });
    const s = service;
    s.emulator.populate(s.key, { locations: 6, reservationsPerLocation: 5 });
    const start = s.client.clock.now();
    const events: PartnerEvent[] = [];
    let atReset = -1;
    const watcher = await runUntil(
      s,
      { checkpoint: fileCheckpoint(fresh()), minInterval: 60_000, maxInterval: 120_000, maxLag: HOUR },
      start + 48 * HOUR,
      events,
      async () => {
        if (atReset < 0 && events.length > 0) {
          atReset = events.length;
          await s.reset({ locations: 3, reservationsPerLocation: 4 });
        }
      },
    );
    expect(s.client.clock.now() - start).toBeGreaterThan(47 * HOUR);
    expect(watcher.stats).toMatchObject({ historyResets: 1, lastHistoryReset: REWOUND.list });
    expectAllDelivered(s, events.slice(atReset), s.emulator.clock.now().getTime() - 2 * HOUR);
  });

  it('a restart right after the reset was saved (nothing else yet) syncs everything, even with startFrom now', {
    timeout: 60_000,
  }, async () => {
    service = await startService({ seed: 9, visitsPerWeek: 0 });
    const s = service;
    s.emulator.populate(s.key, { locations: 2, reservationsPerLocation: 3 });
    const checkpoint = memoryCheckpoint();
    await checkpoint.save(new WatchState().snapshot(), { replace: true });
    await checkpoint.save(JSON.stringify([['r', s.emulator.clock.now().getTime()]]));
    const events: PartnerEvent[] = [];
    await runUntil(s, { checkpoint, startFrom: 'now', ...OPTIONS }, s.client.clock.now() + HOUR, events);
    const bookings = s.emulator.inspect
      .reservations(s.key)
      .map((b) => b.reservation_id)
      .sort();
    expect(
      events
        .filter((e) => e.type === 'reservation.created')
        .map((e) => e.data.reservation_id)
        .sort(),
    ).toEqual(bookings);
  });

  it('bookings the checkpoint remembers that the service does not have: noticed by the next full pass, then everything synced again', {
    timeout: 60_000,
  }, async () => {
    service = await startService({ seed: 8, visitsPerWeek: 0 });
    const s = service;
    s.emulator.populate(s.key, { locations: 3, reservationsPerLocation: 4 });
    const path = fresh();
    const start = s.client.clock.now();
    const first: PartnerEvent[] = [];
    await runUntil(s, { checkpoint: fileCheckpoint(path), ...OPTIONS }, start + HOUR, first);
    appendFileSync(path, `${JSON.stringify([['b', 'ghost-1', '0|d||']])}\n`);
    const again: PartnerEvent[] = [];
    const watcher = await runUntil(s, { checkpoint: fileCheckpoint(path), ...OPTIONS }, start + 6 * HOUR, again);
    expect(watcher.stats).toMatchObject({ historyResets: 1, lastHistoryReset: REWOUND.bookings });
    const bookings = s.emulator.inspect
      .reservations(s.key)
      .map((b) => b.reservation_id)
      .sort();
    expect(
      again
        .filter((e) => e.type === 'reservation.created')
        .map((e) => e.data.reservation_id)
        .sort(),
    ).toEqual(bookings);
    const state = await WatchState.load(fileCheckpoint(path));
    expect(state.family(bookingFamily).booking('ghost-1')).toBeUndefined();
    expect(state.family(bookingFamily).size).toBe(bookings.length);
  });
});
