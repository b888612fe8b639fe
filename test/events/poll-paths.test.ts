/**
 * Each finder's poll, driven directly on the sandbox on simulated time (no watcher, no waits), its
 * calls pinned from the requests it sends: for each kind of change, the routes and the query
 * (page size, cursor, filters, billing month), the records written, the events found and what the
 * finder `wants` after. Fast enough for a narrowed Stryker run of bookings.ts and videos.ts
 * (pass-cost.test.ts pins the same through the watcher over simulated days).
 */
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/index.js';
import { bookingFamily, packBooking } from '../../src/events/bookings.js';
import type { Found } from '../../src/events/detector.js';
import type { StateRecord } from '../../src/events/records.js';
import { detectorFor, useSimEnv, type SimEnv } from './support.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Step {
  calls: string[];
  events: string[];
  /** The store of each event. */
  stores: string[];
  records: StateRecord[];
}

/** A change's kind, as the cost table of docs/events.md names it. */
function kindOf(found: Found): string {
  const event = found.event;
  if (!event) return 'none';
  if (event.type !== 'reservation.updated') return event.type === 'reservation.created' ? 'new booking' : 'new video';
  if ('acknowledged_kind' in event.previous) return 'acknowledgement';
  return `${event.previous.status}>${event.data.status}`;
}

async function pollRig(
  startSimEnv: ReturnType<typeof useSimEnv>,
  now: string,
  visitsPerWeek = 40,
  videoScanSpacing = 0,
) {
  const env: SimEnv = await startSimEnv('msw', { now, visitsPerWeek });
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation: 25 });
  let log: string[] = [];
  /** The list position the poll should read on from: logged as `cursor=saved` when sent, `cursor=other` otherwise. */
  let saved: string | null = null;
  const client = env.client({
    fetch: (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname.replace('/partner/v1', '').replace(/\/locations\/[^/]+\//, '/locations/{store}/');
      const query = [...url.searchParams]
        .map(([name, value]) =>
          name === 'cursor' ? `cursor=${value === saved ? 'saved' : 'other'}` : `${name}=${value}`,
        )
        .sort()
        .join('&');
      log.push(query ? `${path}?${query}` : path);
      return fetch(request);
    },
  });
  const { state, service, detector } = detectorFor(client, { videoScanSpacing, maxLag: 60 * DAY });
  const collect = async (pass: AsyncGenerator<Found>): Promise<Step> => {
    const step: Step = { calls: [], events: [], stores: [], records: [] };
    log = [];
    saved = state.tail.cursor;
    for await (const found of pass) {
      if (found.event) {
        step.events.push(kindOf(found));
        step.stores.push(found.event.partner_location_id);
      }
      step.records.push(...found.records);
    }
    step.calls = log.filter((c) => c !== '/summary');
    return step;
  };
  await detector.summary();
  const firstSync = await collect(detector.reconcile());
  return { env, state, service, detector, collect, client, firstSync };
}

const MAX_LAG = 60 * DAY;
const TAIL = '/reservations?cursor=saved&limit=200';
const STORE_BOOKINGS = '/locations/{store}/reservations?limit=200';
const CONTENT = '/locations/{store}/content?limit=200';
const billing = (month: string) => `/billing/monthly?limit=200&month=${month}`;
const distinct = (step: Step, which: (kind: string) => boolean) =>
  new Set(step.stores.filter((_, i) => which(step.events[i] as string))).size;

/**
 * The calls a poll makes for what it found: the list read on from its saved end when bookings
 * moved; the pending list when a booking left pending, then the bookings of each store one left
 * (or whose visit became due); billing for this month (and the next once a time zone may be in
 * it) and the content of each store with a new video.
 */
function expectedCalls(step: Step, moved: boolean, now: number): string[] {
  const calls: string[] = [];
  const bookings = step.events.some((e) => e !== 'new video');
  if (bookings || (moved && !step.events.includes('new video'))) calls.push(TAIL);
  const leftPending = distinct(step, (e) => e.startsWith('pending>'));
  if (leftPending > 0) calls.push('/reservations?limit=200&status=pending');
  const due = distinct(step, (e) => e.startsWith('confirmed>'));
  calls.push(...Array<string>(leftPending + due).fill(STORE_BOOKINGS));
  const videos = distinct(step, (e) => e === 'new video');
  if (videos > 0) {
    const month = new Date(now).toISOString().slice(0, 7);
    calls.push(billing(month), ...Array<string>(videos).fill(CONTENT));
  }
  return calls;
}

describe('a poll, change by change', () => {
  const startSimEnv = useSimEnv();

  it('each kind of change costs what the summary points at, and is found in the poll after it (or asks for a reconciliation)', {
    timeout: 60_000,
  }, async () => {
    const { env, state, service, detector, collect, firstSync } = await pollRig(startSimEnv, '2026-11-30T00:00:00Z');
    // The first sync: the whole list in two pages, billing for every month since the oldest
    // booking, the content of each store with a completed visit; every booking and video delivered,
    // and the list's end saved (the last page's cursor and its 50 bookings).
    const stores = env.sandbox.inspect.stores(env.key).map((store) => store.partner_location_id);
    const videos = stores.reduce((sum, store) => sum + env.sandbox.inspect.videos(env.key, store).length, 0);
    expect(firstSync.calls).toEqual([
      '/reservations?limit=200',
      '/reservations?cursor=other&limit=200',
      billing('2026-10'),
      billing('2026-11'),
      ...Array<string>(10).fill(CONTENT),
    ]);
    expect(firstSync.events.filter((e) => e === 'new booking').length).toBe(250);
    expect(firstSync.events.filter((e) => e === 'new video').length).toBe(videos);
    expect(firstSync.events.length).toBe(250 + videos);
    expect(firstSync.records.filter((r) => r[0] === 'b').length).toBe(250);
    expect(firstSync.records.filter((r) => r[0] === 't')).toEqual([['t', state.tail.cursor, 50]]);
    expect(state.tail.seen).toBe(50);
    expect(state.tail.cursor).toEqual(expect.any(String));
    expect(firstSync.records.at(-1)).toEqual(['f', state.fullAt]);
    const app = env.client();
    const kinds = new Set<string>();
    let seq = env.sandbox.inspect.changes(env.key).at(-1)?.seq ?? 0;
    let acks = 0;
    let monthRecords = 0;
    for (let i = 0; i < 150; i++) {
      env.clock.advance(10 * MINUTE);
      // Now and then the app acknowledges a pending booking: only the unacknowledged count moves.
      let acked = false;
      if (i % 40 === 20) {
        const pending = env.sandbox.inspect
          .reservations(env.key)
          .find((r) => r.status === 'pending' && r.acknowledged_kind === null);
        if (pending) {
          await app.reservations.acknowledge(pending.reservation_id, 'acknowledged_self');
          acks++;
          acked = true;
        }
      }
      const changes = env.sandbox.inspect.changes(env.key, { after: seq });
      seq = changes.at(-1)?.seq ?? seq;
      const summary: Summary = await detector.summary();
      const tailBefore = { ...state.tail };
      const step = await collect(detector.poll(summary));
      // Before the first reconciliation is due, a finder's mismatch alone can ask for one.
      state.fullAt = service.now() - MAX_LAG / 10;
      const choice = detector.choose(0);
      const key = step.events.join(',') || (changes.length === 0 && !acked ? 'nothing' : 'none');
      const s = state.family(bookingFamily).counts;
      const r = summary.reservations;
      const placed = [
        s.pending === r.pending,
        s.confirmed === r.confirmed,
        s.completed === r.completed,
        s.no_show === r.no_show,
        s.unacknowledged === r.unacknowledged,
      ].every(Boolean);
      kinds.add(key);
      if (step.records.some((r) => r[0] === 'm')) monthRecords++;
      // Every booking the list gained since its saved end is found by the poll, the end saved.
      const created = changes.filter((c) => c.type === 'reservation.created').length;
      expect(step.events.filter((e) => e === 'new booking').length).toBe(created);
      if (changes.some((c) => c.type !== 'video.published') || acked) {
        expect(step.records.at(-1)?.[0] === 't' || step.records.some((r) => r[0] === 't')).toBe(true);
        expect(state.tail.cursor === tailBefore.cursor ? state.tail.seen : created + tailBefore.seen).toBe(
          created + tailBefore.seen,
        );
      }
      // What the poll reads follows from what moved: nothing else, no list twice, each with its page size.
      expect(step.calls, key).toEqual(expectedCalls(step, changes.length > 0 || acked, service.now()));
      if (!placed) {
        // Only a full read places it (a cancellation of a confirmed booking, an acknowledgement).
        expect(choice).toEqual({ kind: 'reconciliation', reason: 'mismatch' });
        const settled = await collect(detector.reconcile(summary));
        const month = new Date(service.now()).toISOString().slice(0, 7);
        const ahead = new Date(service.now() + 14 * 3_600_000).toISOString().slice(0, 7);
        const months = [month, month === '2026-12' ? '2026-11' : '2026-10', ...(ahead === month ? [] : [ahead])];
        // Not a first sync: the whole list, billing for this month and the last (and the next near
        // its first moment), and no store whose count agrees.
        const anyCursor = (c: string) => c.replace(/cursor=\w+/, 'cursor');
        expect(settled.calls.filter((c) => c !== CONTENT).map(anyCursor)).toEqual([
          '/reservations?limit=200',
          '/reservations?cursor&limit=200',
          ...months.map(billing),
        ]);
        expect(settled.records.filter((r) => r[0] === 't')).toEqual([['t', state.tail.cursor, state.tail.seen]]);
        expect(state.tail.seen).toBe(env.sandbox.inspect.reservations(env.key).length - 200);
        expect(settled.events.length).toBeGreaterThan(0);
        for (const e of settled.events) kinds.add(`reconciled ${e}`);
      } else expect(choice, key).toEqual({ kind: 'poll', reason: 'not due' });
    }
    // Nothing was left behind: a last full read finds no change the passes missed.
    const last = await collect(detector.reconcile(await detector.summary()));
    expect(last.events).toEqual([]);
    expect(acks).toBeGreaterThan(2);
    expect(monthRecords).toBe(1);
    // The sandbox's seed gives each kind at least once in these 25 hours, across a month end (a visit due is pinned by pass-cost.test.ts).
    for (const kind of ['nothing', 'new booking', 'pending>confirmed', 'pending>rejected', 'new video'])
      expect(kinds, kind).toContain(kind);
    for (const kind of [
      'acknowledgement,pending>confirmed',
      'reconciled acknowledgement',
      'reconciled confirmed>cancelled',
    ])
      expect(kinds, kind).toContain(kind);
  });

  it('a video total billing cannot explain: billing for each recent month once, then not again until the total moves; one scan per scanSpacing', {
    timeout: 60_000,
  }, async () => {
    for (const [now, months] of [
      ['2026-11-10T12:00:00Z', ['2026-11', '2026-10']],
      // Within a time zone's reach of December's first moment: December's counts too.
      ['2026-11-30T20:00:00Z', ['2026-11', '2026-10', '2026-12']],
    ] as const) {
      const { env, detector, collect } = await pollRig(startSimEnv, now, 0, 60_000);
      const summary = await detector.summary();
      const total = (more: number): Summary => ({ ...summary, videos_published: summary.videos_published + more });
      // The first scan also settles the stores whose billing count depends on the time zone.
      await collect(detector.poll(total(1)));
      env.clock.advance(60_000);
      const first = await collect(detector.poll(total(2)));
      expect(first.calls, now).toEqual(months.map(billing));
      expect(first.events).toEqual([]);
      // The same total: not chased again, even once the spacing has passed.
      env.clock.advance(60_000);
      expect((await collect(detector.poll(total(2)))).calls).toEqual([]);
      // A new total inside the spacing waits for it; at its end, billing is read again.
      env.clock.advance(10_000);
      await collect(detector.poll(total(3)));
      env.clock.advance(59_999);
      expect((await collect(detector.poll(total(4)))).calls).toEqual([]);
      env.clock.advance(1);
      expect((await collect(detector.poll(total(4)))).calls).toEqual(months.map(billing));
      // Explained again: nothing read.
      env.clock.advance(60_000);
      expect((await collect(detector.poll(summary))).calls).toEqual([]);
    }
  });

  it('the first poll since start reads the list end once even when the counts agree; then nothing until the summary moves', {
    timeout: 60_000,
  }, async () => {
    const { detector, collect } = await pollRig(startSimEnv, '2026-11-10T12:00:00Z', 0);
    const summary = await detector.summary();
    // A booking made and settled while the watcher was down leaves the counts as they were: only the list shows it.
    expect((await collect(detector.poll(summary))).calls).toEqual([TAIL]);
    expect((await collect(detector.poll(summary))).calls).toEqual([]);
  });

  it('a visit that became due: its store read once, found as a status change', { timeout: 60_000 }, async () => {
    const { env, detector, collect } = await pollRig(startSimEnv, '2026-11-10T12:00:00Z', 0);
    await collect(detector.poll(await detector.summary()));
    // Polls every 10 minutes until a pass finds a visit's outcome alone.
    let step: Step | undefined;
    for (let i = 0; i < 600 && !(step?.events.length === 1 && step.events[0]?.startsWith('confirmed>')); i++) {
      env.clock.advance(10 * MINUTE);
      step = await collect(detector.poll(await detector.summary()));
    }
    expect(step?.events).toHaveLength(1);
    expect(step?.events[0]).toMatch(/^confirmed>(completed|no_show)$/);
    expect(step?.calls).toEqual([TAIL, STORE_BOOKINGS]);
  });

  it('a visit the state holds as due is read for only when a count a visit moves moved: not for a pending count alone', {
    timeout: 60_000,
  }, async () => {
    const { env, state, service, detector, collect } = await pollRig(startSimEnv, '2026-11-10T12:00:00Z', 0);
    const summary = await detector.summary();
    await collect(detector.poll(summary));
    // A confirmed booking whose visit the state holds as past, while the service still has it ahead.
    const bookings = state.family(bookingFamily);
    const confirmed = env.sandbox.inspect.reservations(env.key).find((b) => b.status === 'confirmed');
    const entry = confirmed && bookings.booking(confirmed.reservation_id);
    if (!confirmed || !entry) throw new Error('the populated account has a confirmed booking in the state');
    const past = Math.floor(service.now() / MINUTE) - 1;
    state.apply(['b', confirmed.reservation_id, packBooking({ ...entry, visit: past })]);
    expect((await bookings.storesWithVisitsBy(service.now() / MINUTE)).size).toBe(1);
    const counts = summary.reservations;
    const pendingMoved: Summary = { ...summary, reservations: { ...counts, pending: counts.pending + 1 } };
    expect((await collect(detector.poll(pendingMoved))).calls).toEqual([
      TAIL,
      '/reservations?limit=200&status=pending',
    ]);
    const confirmedMoved: Summary = { ...summary, reservations: { ...counts, confirmed: counts.confirmed - 1 } };
    expect((await collect(detector.poll(confirmedMoved))).calls).toEqual([TAIL, STORE_BOOKINGS]);
  });

  it('a list end the service no longer reaches: history gone back, nothing more read in the pass; another error is thrown, not taken for a refused position', {
    timeout: 60_000,
  }, async () => {
    const { env, state, detector, collect } = await pollRig(startSimEnv, '2026-11-10T12:00:00Z', 0);
    const summary = await detector.summary();
    state.apply(['t', state.tail.cursor, 199]);
    const moved: Summary = {
      ...summary,
      reservations: { ...summary.reservations, pending: summary.reservations.pending + 1 },
    };
    const rewound = await collect(detector.poll(moved));
    expect(rewound.calls).toEqual([TAIL]);
    expect(detector.rewound).toEqual(expect.any(String));
    expect(detector.choose(0)).toEqual({ kind: 'reconciliation', reason: 'history reset' });
    await collect(detector.reconcile(summary));
    env.sandbox.faults.next({ status: 403, path: /\/reservations$/ });
    await expect(collect(detector.poll(moved))).rejects.toMatchObject({ status: 403 });
    expect(detector.choose(0)).toEqual({ kind: 'poll', reason: 'not due' });
  });
});
