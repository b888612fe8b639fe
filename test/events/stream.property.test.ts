/**
 * The event stream against random histories: bookings created and moved through their statuses by
 * the sandbox, videos published, the service's clock up to 60 days from the client's and the run
 * crossing a month end, the loop left at random events (a crash: that event unconfirmed) and a new
 * watcher started on the same checkpoint; billing counts months in UTC or in the stores' time zone; stores appear mid-run with
 * weeks of history older than their enrollment. Every change is delivered at least once, under an id
 * that names one change. `FC_NUM_RUNS` for a longer run; fast-check prints the seed on failure, and `FC_SEED` (with `FC_PATH`)
 * replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent } from '../../src/events/index.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { coverage } from './coverage.js';
import { billingInStoreZone, startSimEnv } from './support.js';

const RUNS = fastCheckRuns(12);
const DAY = 86_400_000;
const OPTIONS = { minInterval: 10 * 60_000, maxInterval: 3_600_000, maxLag: 2 * 3_600_000 };

interface History {
  /** Days before a month's end the service's clock starts. */
  monthIndex: number;
  beforeEndMs: number;
  offsetMs: number;
  stores: number;
  bookings: number;
  visitsPerWeek: number;
  days: number;
  /** After how many events of each watcher's life the loop is left. */
  crashes: number[];
  /** The stores' time zone, billing counting months in it; none: billing in UTC, as the sandbox counts. */
  zone: string | undefined;
  /**
   * Stores that appear mid-run (`at` ms in) with the past weeks' bookings and videos, older than
   * their enrollment: billing does not list them for those months.
   */
  later: { at: number; stores: number; bookings: number } | null;
}

const history: fc.Arbitrary<History> = fc.record({
  monthIndex: fc.integer({ min: 0, max: 23 }),
  beforeEndMs: fc.integer({ min: 0, max: 3 * DAY }),
  offsetMs: fc.integer({ min: -60 * DAY, max: 60 * DAY }),
  stores: fc.integer({ min: 1, max: 4 }),
  bookings: fc.integer({ min: 0, max: 4 }),
  visitsPerWeek: fc.integer({ min: 0, max: 20 }),
  days: fc.integer({ min: 1, max: 5 }),
  crashes: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }),
  zone: fc.constantFrom(undefined, 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata'),
  later: fc.option(
    fc.record({
      at: fc.integer({ min: 0, max: 4 * DAY }),
      stores: fc.integer({ min: 1, max: 3 }),
      bookings: fc.integer({ min: 1, max: 6 }),
    }),
  ),
});

async function check(h: History): Promise<void> {
  const monthEnd = Date.UTC(2026, h.monthIndex + 1, 1);
  const env = await startSimEnv(
    'msw',
    { now: monthEnd - h.beforeEndMs, visitsPerWeek: h.visitsPerWeek, seed: h.monthIndex + 1 },
    h.offsetMs,
  );
  try {
    const { locationIds } = env.sandbox.populate(env.key, { locations: h.stores, reservationsPerLocation: h.bookings });
    if (h.zone) for (const id of locationIds) await env.client().locations.update(id, { time_zone: h.zone });
    const answer = h.zone ? billingInStoreZone(env) : fetch;
    const arriveAt = env.clock.now() + (h.later?.at ?? 0);
    let later = h.later;
    const client = env.client({
      fetch: (input, init) => {
        if (later && env.clock.now() >= arriveAt) {
          env.sandbox.populate(env.key, {
            locations: later.stores,
            reservationsPerLocation: later.bookings,
            idPrefix: 'late-',
          });
          later = null;
        }
        return answer(input, init);
      },
    });
    const checkpoint = memoryCheckpoint();
    const until = env.clock.now() + h.days * DAY;
    const events: PartnerEvent[] = [];
    const crashes = [...h.crashes];
    while (env.clock.now() < until) {
      const controller = new AbortController();
      const watcher = watchEvents(client, { checkpoint, signal: controller.signal, ...OPTIONS });
      let stopped = false;
      // The loop may idle with nothing to deliver: stop it once simulated time is up.
      const timer = setInterval(() => {
        if (env.clock.now() >= until) controller.abort();
      }, 1);
      try {
        const crashAt = crashes.shift();
        let seen = 0;
        for await (const event of watcher) {
          events.push(event);
          if (++seen === crashAt) {
            stopped = true;
            break; // a crash: this event's loop body never finished
          }
        }
      } finally {
        clearInterval(timer);
      }
      if (!stopped) break;
    }
    const changes = env.sandbox.inspect.changes(env.key);
    const lastPoll = env.sandbox.clock.now().getTime();
    const report = coverage(changes, events, lastPoll - OPTIONS.maxLag - OPTIONS.maxInterval);
    expect(report.missing).toEqual([]);
    expect(report.createdMissing).toEqual([]);
    // One id, one change: every delivery under an id shows the same thing.
    const byId = new Map<string, string>();
    for (const e of events) {
      const what = JSON.stringify([
        e.type,
        e.type === 'video.published' ? e.data.video_id : e.data.reservation_id,
        e.type === 'video.published' ? null : [e.data.status, e.data.acknowledged_kind],
      ]);
      expect(byId.get(e.id) ?? what).toBe(what);
      byId.set(e.id, what);
    }
  } finally {
    await env.close();
  }
}

describe('event stream property', () => {
  // A run takes ~0.2 s alone, ~2 s on a loaded machine: the time limit grows with FC_NUM_RUNS, so a long run is not cut short.
  it('delivers every change at least once under a stable id, whatever the clocks and crashes', {
    timeout: Math.max(120_000, RUNS.numRuns * 5_000),
  }, async () => {
    await fc.assert(fc.asyncProperty(history, check), RUNS);
  });

  // Shrunk by fast-check from the watcher that read the machine's clock: 109 s behind the
  // service at a month's first moment was enough to lose the new videos.
  it('counterexample: a client 109 s behind the service, starting at a month first moment', {
    timeout: 30_000,
  }, async () => {
    await check({
      monthIndex: 0,
      beforeEndMs: 0,
      offsetMs: -109_001,
      stores: 1,
      bookings: 0,
      visitsPerWeek: 9,
      days: 3,
      crashes: [],
      zone: undefined,
      later: null,
    });
  });

  // Shrunk by fast-check from the finder that read only billing's stores after a first sync: a store
  // enrolled at a month's first moment with a video of the month before (which billing does not list
  // it for) was never read.
  it('counterexample: a store appearing with a video older than its enrollment month', {
    timeout: 30_000,
  }, async () => {
    await check({
      monthIndex: 0,
      beforeEndMs: 0,
      offsetMs: 0,
      stores: 1,
      bookings: 0,
      visitsPerWeek: 0,
      days: 1,
      crashes: [],
      zone: undefined,
      later: { at: 1, stores: 1, bookings: 1 },
    });
  });
});
