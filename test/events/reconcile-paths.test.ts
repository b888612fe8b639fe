/**
 * The full reconciliation of the booking and video finders, driven directly on the sandbox on
 * simulated time (no watcher, no waits), its reads pinned from the request log: the whole booking
 * list once, its end saved (the cursor of the last page read, or none for a single page); the
 * billing months from the oldest booking's on a first sync, this month's and the last's after;
 * the content of each store billing points at, and on a first sync of each store with a completed
 * visit; bookings gone from the service taken for a history gone back, and nothing else. Fast
 * enough for a narrowed Stryker run of bookings.ts and videos.ts (poll-paths.test.ts pins the polls).
 */
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/index.js';
import { BookingState, bookingFamily, packBooking } from '../../src/events/bookings.js';
import type { Found } from '../../src/events/detector.js';
import { eventId } from '../../src/events/event-id.js';
import { REWOUND } from '../../src/events/history.js';
import type { StateRecord } from '../../src/events/records.js';
import { WatchState } from '../../src/events/state.js';
import { checkpointOf } from './checkpoint-lines.js';
import { isPackedVideos, unpackVideos, videoFamily, VideoState, videosInMonth } from '../../src/events/videos.js';
import { detectorFor, useSimEnv, type SimEnv } from './support.js';

const DAY = 24 * 60 * 60_000;
const MAX_LAG = 60 * DAY;

interface Step {
  calls: string[];
  found: Found[];
  /** Each event's kind and store. */
  events: string[];
  records: StateRecord[];
}

/** A list's items as the service answers them, changed by `rewrite` (a test's own service). */
type Rewrite = (path: string, body: { items: Array<Record<string, unknown>>; next_cursor: string | null }) => void;

async function rig(
  startSimEnv: ReturnType<typeof useSimEnv>,
  {
    reservationsPerLocation = 2,
    rewrite,
    now = '2026-11-10T12:00:00Z',
  }: { reservationsPerLocation?: number; rewrite?: Rewrite; now?: string } = {},
) {
  const env: SimEnv = await startSimEnv('msw', { now, visitsPerWeek: 0 });
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation });
  let log: string[] = [];
  /** Each cursor the service handed out, numbered in order: logged as `cursor=#n`. */
  const cursors: string[] = [];
  const client = env.client({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname.replace('/partner/v1', '');
      const shown = path.replace(/\/locations\/([^/]+)\/content$/, '/content $1');
      const query = [...url.searchParams]
        .map(([name, value]) => (name === 'cursor' ? `cursor=#${cursors.indexOf(value)}` : `${name}=${value}`))
        .sort()
        .join('&');
      if (path !== '/summary') log.push(query ? `${shown}?${query}` : shown);
      const response = await fetch(request);
      if (path === '/summary' || !response.ok) return response;
      const body = (await response.clone().json()) as Parameters<Rewrite>[1];
      if (body.next_cursor) cursors.push(body.next_cursor);
      if (!rewrite) return response;
      rewrite(path, body);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    },
  });
  const { state, service, detector } = detectorFor(client, { videoScanSpacing: 0, maxLag: MAX_LAG });
  const collect = async (pass: AsyncGenerator<Found>): Promise<Step> => {
    const step: Step = { calls: [], found: [], events: [], records: [] };
    log = [];
    for await (const found of pass) {
      step.found.push(found);
      // Nothing is yielded for nothing, and each record is one.
      expect(found.event !== undefined || found.records.length > 0).toBe(true);
      for (const record of found.records) expect(record).toEqual(expect.any(Array));
      if (found.event) step.events.push(`${found.event.type} ${found.event.partner_location_id}`);
      step.records.push(...found.records);
    }
    step.calls = log;
    return step;
  };
  const reconcile = async (summary?: Summary) => collect(detector.reconcile(summary ?? (await detector.summary())));
  return { env, state, service, detector, collect, reconcile, cursors };
}

const billing = (month: string) => `/billing/monthly?limit=200&month=${month}`;
const content = (store: string) => `/content ${store}?limit=200`;
/** The stores (pop-000004 to pop-000009 of the sandbox's seed) with a completed visit, and each a video. */
const COMPLETED = [4, 5, 6, 7, 8, 9].map((n) => `pop-00000${n}`);

describe('a full reconciliation', () => {
  const startSimEnv = useSimEnv();

  it('a first sync on one page: the list once, no cursor saved; billing since the oldest booking; the stores billing points at', {
    timeout: 60_000,
  }, async () => {
    const { env, state, detector, reconcile } = await rig(startSimEnv);
    const first = await reconcile();
    expect(first.calls).toEqual([
      '/reservations?limit=200',
      billing('2026-10'),
      billing('2026-11'),
      ...COMPLETED.map(content),
    ]);
    expect(first.events.filter((e) => e.startsWith('reservation.created')).length).toBe(20);
    const videos = COMPLETED.flatMap((store) => env.sandbox.inspect.videos(env.key, store));
    expect(first.events.filter((e) => e.startsWith('video.published')).length).toBe(videos.length);
    expect(first.records.filter((r) => r[0] === 't')).toStrictEqual([['t', null, 20]]);
    expect(state.tail).toStrictEqual({ cursor: null, seen: 20 });
    expect(state.family(bookingFamily).size).toBe(20);
    expect(state.family(videoFamily).total).toBe(videos.length);
    expect(detector.rewound).toBeUndefined();
    // The next: the list and this month's and the last's billing again, nothing found, no content read.
    const second = await reconcile();
    expect(second.calls).toEqual(['/reservations?limit=200', billing('2026-11'), billing('2026-10')]);
    expect(second.events).toEqual([]);
    expect(second.records.map((r) => r[0])).toEqual(['t', 'f']);
    expect(detector.rewound).toBeUndefined();
    expect(detector.choose(0)).toEqual({ kind: 'poll', reason: 'not due' });
  });

  it('on two pages: the end saved is the cursor that led to the last page, and its bookings', {
    timeout: 60_000,
  }, async () => {
    const { state, reconcile, detector, cursors } = await rig(startSimEnv, { reservationsPerLocation: 25 });
    const first = await reconcile();
    expect(first.calls.slice(0, 2)).toEqual(['/reservations?limit=200', '/reservations?cursor=#0&limit=200']);
    expect(state.tail).toStrictEqual({ cursor: cursors.at(-1), seen: 50 });
    const again = await reconcile();
    expect(again.calls.slice(0, 2).map((c) => c.replace(/#\d+/, '#'))).toEqual([
      '/reservations?limit=200',
      '/reservations?cursor=#&limit=200',
    ]);
    expect(state.tail).toStrictEqual({ cursor: cursors.at(-1), seen: 50 });
    expect(again.events).toEqual([]);
    expect(detector.rewound).toBeUndefined();
  });

  it('a page that repeats a booking: counted once, the end saved where the next poll finds nothing new', {
    timeout: 60_000,
  }, async () => {
    let repeat = true;
    const { state, reconcile, detector, collect } = await rig(startSimEnv, {
      rewrite: (path, body) => {
        if (repeat && path === '/reservations' && body.items.length > 0) body.items.push(body.items[0] as never);
      },
    });
    const first = await reconcile();
    expect(first.events.filter((e) => e.startsWith('reservation.created')).length).toBe(20);
    expect(state.tail).toStrictEqual({ cursor: null, seen: 20 });
    expect(detector.rewound).toBeUndefined();
    repeat = false;
    const poll = await collect(detector.poll(await detector.summary()));
    expect(poll.calls).toEqual(['/reservations?limit=200']);
    expect(poll.events).toEqual([]);
    expect(detector.rewound).toBeUndefined();
  });

  it('bookings the state holds and the list no longer shows: the history went back', { timeout: 60_000 }, async () => {
    const { state, reconcile, detector } = await rig(startSimEnv);
    await reconcile();
    state.apply(['b', 'gone', packBooking({ store: 0, status: 'pending', ack: null, visit: null })]);
    await reconcile();
    expect(detector.rewound).toBe(REWOUND.bookings);
    expect(detector.choose(0)).toEqual({ kind: 'reconciliation', reason: 'history reset' });
  });

  it('a first sync reads billing from the oldest booking’s month, and the content of each store with a completed visit billing does not list', {
    timeout: 60_000,
  }, async () => {
    const { env, reconcile } = await rig(startSimEnv, {
      rewrite: (path, body) => {
        // One booking made in July; a billing that lists no store.
        if (path === '/reservations') {
          const last = body.items.at(-1) as { created_at: string };
          last.created_at = '2026-07-20T10:00:00Z';
        }
        if (path === '/billing/monthly') body.items = [];
      },
    });
    const first = await reconcile();
    expect(first.calls).toEqual([
      '/reservations?limit=200',
      ...['2026-07', '2026-08', '2026-09', '2026-10', '2026-11'].map(billing),
      ...COMPLETED.map(content),
    ]);
    const videos = COMPLETED.flatMap((store) => env.sandbox.inspect.videos(env.key, store));
    expect(first.events.filter((e) => e.startsWith('video.published')).length).toBe(videos.length);
    // After the first sync, a store billing does not list is not read for its completed visits.
    const second = await reconcile();
    expect(second.calls).toEqual(['/reservations?limit=200', billing('2026-11'), billing('2026-10')]);
  });

  it('a poll asks for a reconciliation while any one booking count differs from the summary, and for none while all agree', {
    timeout: 60_000,
  }, async () => {
    const { state, service, detector, reconcile, collect } = await rig(startSimEnv);
    await reconcile();
    const summary = await detector.summary();
    state.fullAt = service.now() - MAX_LAG / 10;
    for (const field of ['pending', 'confirmed', 'completed', 'no_show', 'unacknowledged'] as const) {
      const off: Summary = {
        ...summary,
        reservations: { ...summary.reservations, [field]: summary.reservations[field] + 1 },
      };
      await collect(detector.poll(off));
      expect(detector.choose(0), field).toEqual({ kind: 'reconciliation', reason: 'mismatch' });
      await collect(detector.poll(summary));
      expect(detector.choose(0), field).toEqual({ kind: 'poll', reason: 'not due' });
    }
  });

  it('each event: its id from what changed, the service’s time, the booking as listed and what it was before', {
    timeout: 60_000,
  }, async () => {
    let later = false;
    let rejected = '';
    const { env, service, reconcile } = await rig(startSimEnv, {
      // A confirmed booking's visit moved an hour on: tracked, not an event of its own. Another
      // pending booking rejected without being acknowledged.
      rewrite: (path, body) => {
        if (!later || path !== '/reservations') return;
        for (const item of body.items) {
          if (item.status === 'confirmed' && typeof item.visit_at === 'string')
            item.visit_at = new Date(Date.parse(item.visit_at) + 3_600_000).toISOString();
          if (item.reservation_id === rejected) item.status = 'rejected';
        }
      },
    });
    const first = await reconcile();
    const created = first.found.filter((f) => f.event?.type === 'reservation.created');
    for (const { event } of created) {
      if (event?.type !== 'reservation.created') continue;
      expect(event.id).toBe(eventId(`c|${event.data.reservation_id}`));
      expect(event.created_at).toBe(new Date(service.now()).toISOString());
      expect(event.partner_location_id).toBe(event.data.partner_location_id);
    }
    const [pending, other] = env.sandbox.inspect.reservations(env.key).filter((r) => r.status === 'pending');
    rejected = other?.reservation_id as string;
    await env.client().reservations.acknowledge(pending?.reservation_id as string, 'acknowledged_self');
    later = true;
    const confirmed = env.sandbox.inspect.reservations(env.key).filter((r) => r.status === 'confirmed');
    const second = await reconcile();
    const events = second.found.flatMap((f) => (f.event ? [f.event] : []));
    expect(events).toHaveLength(2);
    const ack = events.find((e) => e.partner_location_id === pending?.partner_location_id);
    const reject = events.find((e) => e.partner_location_id === other?.partner_location_id);
    expect(reject?.type === 'reservation.updated' && reject.previous).toEqual({ status: 'pending' });
    expect(reject?.id).toBe(eventId(`u|${rejected}|pending>rejected|>`));
    expect(ack?.type === 'reservation.updated' && ack.previous).toEqual({ acknowledged_kind: null });
    expect(ack?.id).toBe(eventId(`u|${pending?.reservation_id}|pending>pending|>acknowledged_self`));
    expect(ack?.type === 'reservation.updated' && ack.data.acknowledged_kind).toBe('acknowledged_self');
    // Each moved visit saved, with no event.
    const moved = second.records.filter((r) => r[0] === 'b');
    expect(moved).toHaveLength(confirmed.length + 2);
    expect(second.found.filter((f) => !f.event && f.records.some((r) => r[0] === 'b'))).toHaveLength(confirmed.length);
  });

  it('a poll that reads on past a page: the end saved moves to the last page', { timeout: 60_000 }, async () => {
    const { state, detector, reconcile, collect, cursors } = await rig(startSimEnv, { reservationsPerLocation: 25 });
    await reconcile();
    // An end saved on the first page, 150 bookings in: the poll reads that page and the next.
    state.apply(['t', null, 150]);
    const poll = await collect(detector.poll(await detector.summary()));
    expect(poll.calls.map((c) => c.replace(/#\d+/, '#'))).toEqual([
      '/reservations?limit=200',
      '/reservations?cursor=#&limit=200',
    ]);
    expect(poll.events).toEqual([]);
    expect(state.tail).toStrictEqual({ cursor: cursors.at(-1), seen: 50 });
  });

  it('a confirmed visit that is due: its store read when any of the confirmed, completed or no-show counts moves', {
    timeout: 60_000,
  }, async () => {
    const { env, state, service, detector, reconcile, collect } = await rig(startSimEnv);
    await reconcile();
    const store = env.sandbox.inspect.stores(env.key)[0]?.partner_location_id as string;
    const index = state.storeIndex(store) as number;
    const past = Math.floor(service.now() / 60_000) - 60;
    state.apply([
      'b',
      'due',
      packBooking({ store: index, status: 'confirmed', ack: 'acknowledged_self', visit: past }),
    ]);
    const summary = await detector.summary();
    const settled = { ...summary.reservations, confirmed: summary.reservations.confirmed + 1 };
    // The counts as the state has them (the booking the test added included): nothing to read for it.
    await collect(detector.poll({ ...summary, reservations: settled }));
    for (const field of ['confirmed', 'completed', 'no_show'] as const) {
      const moved = { ...settled, [field]: settled[field] + 1 };
      const step = await collect(detector.poll({ ...summary, reservations: moved }));
      expect(step.calls, field).toEqual(['/reservations?limit=200', `/locations/${store}/reservations?limit=200`]);
    }
  });

  it('a video total the state does not explain: billing of this month and the last, and the next within a time zone’s reach of it', {
    timeout: 60_000,
  }, async () => {
    for (const [now, months] of [
      ['2026-11-10T12:00:00Z', ['2026-11', '2026-10']],
      ['2026-11-30T20:00:00Z', ['2026-11', '2026-10', '2026-12']],
    ] as const) {
      const { detector, reconcile, collect } = await rig(startSimEnv, { now });
      await reconcile();
      const summary = await detector.summary();
      const step = await collect(detector.poll({ ...summary, videos_published: summary.videos_published + 1 }));
      expect(
        step.calls.filter((c) => c.startsWith('/billing')),
        now,
      ).toEqual(months.map(billing));
      expect(
        (await reconcile()).calls.filter((c) => c.startsWith('/billing')),
        now,
      ).toEqual(months.map(billing));
    }
  });

  it('a reconciliation settles the counts a poll could not: the finder asks for none after it', {
    timeout: 60_000,
  }, async () => {
    const { state, service, detector, reconcile, collect } = await rig(startSimEnv);
    await reconcile();
    const summary = await detector.summary();
    const off: Summary = { ...summary, reservations: { ...summary.reservations, unacknowledged: 0 } };
    await collect(detector.poll(off));
    state.fullAt = service.now() - MAX_LAG / 10;
    expect(detector.choose(0)).toEqual({ kind: 'reconciliation', reason: 'mismatch' });
    await reconcile(off);
    state.fullAt = service.now() - MAX_LAG / 10;
    expect(detector.choose(0)).toEqual({ kind: 'poll', reason: 'not due' });
  });
});

describe('the booking state', () => {
  const SNAPSHOT = {
    format: 'crp-events/1',
    month: '2026-11',
    tail: { cursor: null, seen: 0 },
    fullAt: null,
    stores: ['s1', 's2'],
    videos: {},
  };
  const booking = (store: number, status = 'pending') => packBooking({ store, status, ack: null, visit: null });
  const loaded = async (lines: unknown[]) => WatchState.load(await checkpointOf(lines.map((l) => JSON.stringify(l))));

  it('a snapshot’s or a journal line’s booking must name a store listed before it', async () => {
    const state = await loaded([{ ...SNAPSHOT, bookings: { a: booking(1) } }, [['b', 'c', booking(0, 'confirmed')]]]);
    expect(state.family(bookingFamily).booking('a')).toEqual({ store: 1, status: 'pending', ack: null, visit: null });
    expect(state.family(bookingFamily).counts).toMatchObject({ pending: 1, confirmed: 1, unacknowledged: 2 });
    await expect(loaded([{ ...SNAPSHOT, bookings: { a: booking(2) } }])).rejects.toThrow(
      "the snapshot's booking a names a store it does not list",
    );
    await expect(loaded([{ ...SNAPSHOT, bookings: {} }, [['b', 'a', booking(2)]]])).rejects.toThrow(
      'line 2 names store number 2, which no earlier record added',
    );
  });

  it('counts by status and acknowledgement, keeps the open ones, and forgets everything', () => {
    const bookings = new BookingState();
    bookings.apply(['b', 'a', booking(0)]);
    bookings.apply(['b', 'b', packBooking({ store: 1, status: 'confirmed', ack: 'acknowledged_self', visit: 5 })]);
    bookings.apply(['b', 'c', booking(1, 'no_show')]);
    expect(bookings.counts).toEqual({ pending: 1, confirmed: 1, completed: 0, no_show: 1, unacknowledged: 2 });
    expect([...bookings.open]).toEqual(['a', 'b']);
    bookings.apply(['b', 'a', booking(0, 'completed')]);
    expect(bookings.counts).toEqual({ pending: 0, confirmed: 1, completed: 1, no_show: 1, unacknowledged: 2 });
    expect([...bookings.open]).toEqual(['b']);
    expect(bookings.storeOf(['b', 'c', booking(7)])).toBe(7);
    bookings.forget();
    expect(bookings.size).toBe(0);
    expect([...bookings.open]).toEqual([]);
    expect(bookings.counts).toEqual({ pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 });
  });
});

describe('the video state', () => {
  it('moves a store’s counts to a new month: this month’s become last month’s, or none after a skipped month', () => {
    expect(videosInMonth('3|2|1|2026-10,2026-11', '2026-11', '2026-12')).toBe('3|0|2|2026-11');
    expect(videosInMonth('3|2|1|2026-10,2026-11', '2026-10', '2026-12')).toBe('3|0|0|2026-11');
    expect(videosInMonth('3|2|1', '', '2026-12')).toBe('3|0|0');
    expect(unpackVideos(undefined)).toEqual({ seen: 0, cur: 0, prev: 0, edges: [] });
    expect(unpackVideos('4|3|1')).toEqual({ seen: 4, cur: 3, prev: 1, edges: [] });
    for (const packed of ['1|2|3', '0|0|0|2026-10', '1|2|3|2026-10,2026-11'])
      expect(isPackedVideos(packed), packed).toBe(true);
    for (const packed of ['1|2', '1|2|3|', '1|2|3|2026-1', 'a|2|3', '1|2|3|2026-10,', ' 1|2|3', '1|2|3 ', 1])
      expect(isPackedVideos(packed), String(packed)).toBe(false);
  });

  it('sums what each store saw, keeps the ids delivered, saves and restores them, and forgets everything', () => {
    const videos = new VideoState();
    videos.apply(['v', 0, '3|1|0']);
    videos.apply(['v', 0, '5|1|0']);
    videos.apply(['v', 1, '2|0|0', 'x', 'y']);
    videos.apply(['v', 1, '2|2|0']);
    expect(videos.total).toBe(7);
    expect(videos.delivered(0)).toBeUndefined();
    expect([...(videos.delivered(1) ?? [])]).toEqual(['x', 'y']);
    expect(videos.videos(1)).toEqual({ seen: 2, cur: 2, prev: 0, edges: [] });
    expect(videos.storeOf(['v', 4, '0|0|0'])).toBe(4);
    const snapshot = videos.snapshot();
    expect(snapshot).toEqual({ videos: { 0: '5|1|0', 1: '2|2|0' }, videoIds: { 1: ['x', 'y'] } });
    expect([...videos.restore(snapshot, 2)]).toEqual([
      ['v', 0, '5|1|0'],
      ['v', 1, '2|2|0', 'x', 'y'],
    ]);
    expect([...videos.restore({ videos: { 0: '5|1|0' } }, 1)]).toEqual([['v', 0, '5|1|0']]);
    expect(() => [...videos.restore(snapshot, 1)]).toThrow(
      'the snapshot counts videos of store number 1, which it does not list',
    );
    videos.newMonth('2026-11', '2026-12');
    expect(videos.videos(1)).toEqual({ seen: 2, cur: 0, prev: 2, edges: [] });
    expect(videos.total).toBe(7);
    videos.forget();
    expect(videos.total).toBe(0);
    expect(videos.videos(0)).toEqual({ seen: 0, cur: 0, prev: 0, edges: [] });
    expect(videos.delivered(1)).toBeUndefined();
    const check = videoFamily.snapshot.videoIds?.check;
    expect(check?.({ 1: ['x'] })).toBe(true);
    expect(check?.({ 1: 'x' })).toBe(false);
    expect(check?.({ 1: [''] })).toBe(false);
    expect(check?.({})).toBe(true);
    expect(check?.(null)).toBe(false);
  });
});
