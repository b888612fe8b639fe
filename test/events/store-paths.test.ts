/**
 * The store family's finder driven pass by pass on the sandbox on simulated time (no watcher, no
 * waits), its reads pinned from the request log: which stores each poll and reconciliation reads
 * and in what order (the cadence's share of the budget, carried from pass to pass; the chase of the
 * summary's counts, a tenth of the share a pass and each store once per summary; a store billing
 * lists first), the events and records of a changed store and the `onUnchanged` of an unchanged one.
 * Fast enough for a narrowed Stryker run of stores.ts (stores.test.ts pins the same through the watcher).
 */
import { describe, expect, it } from 'vitest';
import type { Location, Summary } from '../../src/index.js';
import type { Found } from '../../src/events/detector.js';
import { eventId } from '../../src/events/event-id.js';
import type { StateRecord } from '../../src/events/records.js';
import { ServiceClock } from '../../src/events/service-clock.js';
import { WatchState } from '../../src/events/state.js';
import { isPackedStore, storeEntryOf, storeFamily, StoreState } from '../../src/events/stores.js';
import { detectorOn, useSimEnv, type SimEnv } from './support.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' };

interface Step {
  /** Store reads by store id, billing reads as `billing <month>`; the other families' reads left out. */
  calls: string[];
  events: Array<{ store: string; previous: unknown; id: string }>;
  records: StateRecord[];
  /** The store of each booking or video event. */
  moved: string[];
}

async function storeRig(
  startSimEnv: ReturnType<typeof useSimEnv>,
  {
    refreshMs = DAY,
    budgetShare = 0.05,
    scanSpacing = 0,
    visitsPerWeek = 0,
    rateLimit = undefined as { limit: number; windowMs: number } | undefined,
    /** A service that sends no RateLimit fields. */
    noLimitFields = false,
    told = true,
  } = {},
) {
  const env: SimEnv = await startSimEnv('msw', {
    now: '2026-11-10T12:00:00Z',
    visitsPerWeek,
    ...(rateLimit ? { rateLimit } : {}),
  });
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation: 2 });
  let log: string[] = [];
  const client = env.client({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname.replace('/partner/v1', '');
      const store = /^\/locations\/([^/]+)$/.exec(path)?.[1];
      if (store !== undefined) log.push(decodeURIComponent(store));
      if (path === '/billing/monthly') log.push(`billing ${url.searchParams.get('month')}`);
      if (!noLimitFields) return fetch(request);
      const response = await fetch(request);
      const headers = new Headers(response.headers);
      for (const name of [...headers.keys()]) if (name.toLowerCase().includes('ratelimit')) headers.delete(name);
      return new Response(response.body, { status: response.status, headers });
    },
  });
  const unchanged: Array<{ store: string; at: number }> = [];
  const state = new WatchState();
  const service = new ServiceClock(client.clock);
  /** A detector on the state; a second one is a watcher restarted on its checkpoint. */
  const detectorOnState = (onUnchanged?: (store: Location, at: string) => void) =>
    detectorOn(client, state, service, {
      videoScanSpacing: scanSpacing,
      maxLag: 60 * DAY,
      stores: { refreshMs, budgetShare, onUnchanged },
    });
  const detector = detectorOnState(
    told ? (store, at) => void unchanged.push({ store: store.partner_location_id, at: Date.parse(at) }) : undefined,
  );
  const collect = async (pass: AsyncGenerator<Found>): Promise<Step> => {
    const step: Step = { calls: [], events: [], records: [], moved: [] };
    log = [];
    for await (const found of pass) {
      // Nothing is yielded for nothing: each item is an event or a record to save.
      expect(found.event !== undefined || found.records.length > 0).toBe(true);
      for (const record of found.records) expect(record).toEqual(expect.any(Array));
      const event = found.event;
      if (event && event.type !== 'location.updated') step.moved.push(event.partner_location_id);
      if (event?.type === 'location.updated')
        step.events.push({ store: event.partner_location_id, previous: event.previous, id: event.id });
      step.records.push(...found.records);
    }
    step.calls = log;
    return step;
  };
  const stores = env.sandbox.inspect.stores(env.key).map((store) => store.partner_location_id);
  const summary = await detector.summary();
  const firstSync = await collect(detector.reconcile(summary));
  /** The stores in the state's order (the order the cadence and a chase take them in). */
  const inOrder = (from: number, n: number) =>
    Array.from({ length: n }, (_, k) => state.stores.get((from + k) % state.stores.length) as string);
  const poll = async (change: (s: Summary) => Summary = (s) => s) =>
    collect(detector.poll(change(await detector.summary())));
  const restarted = () => detectorOnState();
  return {
    env,
    state,
    service,
    detector,
    collect,
    stores,
    unchanged,
    firstSync,
    inOrder,
    poll,
    restarted,
    app: env.client(),
  };
}

/** The records of stores: a store added to the state (`s`) and its record (`l`). */
const storeRecords = (step: Step) => step.records.filter((r) => r[0] === 's' || r[0] === 'l');
const storeReads = (step: Step) => step.calls.filter((c) => !c.startsWith('billing '));
const withPaused = (more: number) => (s: Summary) => ({
  ...s,
  locations: { ...s.locations, paused: s.locations.paused + more },
});

describe('the store finder, pass by pass', () => {
  const startSimEnv = useSimEnv();

  it('a first sync reads each store once, as new; then a poll with nothing due reads none', {
    timeout: 60_000,
  }, async () => {
    const { state, stores, firstSync, poll, unchanged } = await storeRig(startSimEnv);
    expect(storeReads(firstSync).sort()).toEqual([...stores].sort());
    expect(storeReads(firstSync)).toEqual(state.stores.toArray());
    expect(firstSync.events.map((e) => e.store)).toEqual(state.stores.toArray());
    for (const event of firstSync.events) expect(event.previous).toEqual({});
    const records = state.family(storeFamily);
    expect(records.counts).toEqual({ read: 10, active: 10, paused: 0, terminated: 0, hours_missing: 0 });
    expect(firstSync.records.filter((r) => r[0] === 'l').map((r) => r[1])).toEqual(
      state.stores.toArray().map((_, i) => i),
    );
    expect(unchanged).toEqual([]);
    // No time passed, the counts agree: nothing to read.
    expect((await poll()).calls).toEqual([]);
    expect((await poll()).calls).toEqual([]);
  });

  it('the cadence: every store within refreshMs, in turn, the fraction carried from pass to pass', {
    timeout: 60_000,
  }, async () => {
    // 10 stores every 100 minutes: one each 10 minutes (under the budget's 3 a minute).
    const { env, poll, inOrder, unchanged, service } = await storeRig(startSimEnv, { refreshMs: 100 * MINUTE });
    env.clock.advance(5 * MINUTE);
    expect((await poll()).calls).toEqual([]);
    env.clock.advance(5 * MINUTE);
    const one = await poll();
    expect(one.calls).toEqual(inOrder(0, 1));
    // Read and found as saved: told, with the service's time of the answer; no event, no record.
    expect(one.events).toEqual([]);
    expect(one.records).toEqual([]);
    expect(unchanged).toEqual([{ store: inOrder(0, 1)[0], at: service.now() }]);
    env.clock.advance(25 * MINUTE);
    expect((await poll()).calls).toEqual(inOrder(1, 2));
    env.clock.advance(5 * MINUTE);
    expect((await poll()).calls).toEqual(inOrder(3, 1));
    // Round the list: after the last store, the first again.
    env.clock.advance(70 * MINUTE);
    expect((await poll()).calls).toEqual(inOrder(4, 7));
    expect(unchanged.map((u) => u.store)).toEqual(inOrder(0, 11));
  });

  it('the cadence within a tenth of the share of the budget, however short refreshMs', {
    timeout: 60_000,
  }, async () => {
    // A tenth of 5 % of 600 calls a minute: 3 stores a minute, though refreshMs asks for 10.
    const { env, poll, inOrder } = await storeRig(startSimEnv, { refreshMs: MINUTE });
    env.clock.advance(MINUTE);
    expect((await poll()).calls).toEqual(inOrder(0, 3));
    env.clock.advance(MINUTE / 2);
    expect((await poll()).calls).toEqual(inOrder(3, 1));
    env.clock.advance(MINUTE / 2);
    expect((await poll()).calls).toEqual(inOrder(4, 2));
    // After a long quiet spell: each store once, not the whole arrears.
    env.clock.advance(60 * MINUTE);
    expect((await poll()).calls).toEqual(inOrder(6, 10));
    env.clock.advance(MINUTE / 3);
    expect((await poll()).calls).toEqual(inOrder(6, 1));
  });

  it('the cadence at the smallest share still reads one store a window', { timeout: 60_000 }, async () => {
    // No one told of unchanged stores: read all the same.
    const { env, poll, inOrder } = await storeRig(startSimEnv, { refreshMs: MINUTE, budgetShare: 0.001, told: false });
    env.clock.advance(MINUTE);
    expect((await poll()).calls).toEqual(inOrder(0, 1));
    env.clock.advance(2 * MINUTE);
    expect((await poll()).calls).toEqual(inOrder(1, 2));
  });

  it('the share of the budget from the key’s own limit and window, or 600 a minute when the service states none', {
    timeout: 60_000,
  }, async () => {
    // A tenth of 5 % of 300 calls each 30 s: one store a pass in a chase, one each 30 s in the cadence.
    const limited = await storeRig(startSimEnv, { refreshMs: MINUTE, rateLimit: { limit: 300, windowMs: 30_000 } });
    expect((await limited.poll(withPaused(1))).calls).toEqual(limited.inOrder(0, 1));
    limited.env.clock.advance(MINUTE);
    expect((await limited.poll()).calls).toEqual(limited.inOrder(1, 2));
    const silent = await storeRig(startSimEnv, { refreshMs: MINUTE, noLimitFields: true });
    expect((await silent.poll(withPaused(1))).calls).toEqual(silent.inOrder(0, 3));
    silent.env.clock.advance(MINUTE);
    expect((await silent.poll()).calls).toEqual(silent.inOrder(3, 3));
  });

  it('each of the summary’s store counts, when it differs, starts a chase', { timeout: 60_000 }, async () => {
    const { poll, inOrder } = await storeRig(startSimEnv);
    let turn = 0;
    for (const field of ['active', 'paused', 'terminated', 'hours_missing'] as const) {
      const off = (s: Summary) => ({ ...s, locations: { ...s.locations, [field]: s.locations[field] + 1 } });
      expect((await poll(off)).calls, field).toEqual(inOrder(turn, 3));
      turn += 3;
      expect((await poll()).calls, field).toEqual([]);
    }
  });

  it('a restart on the same state reads no store again; an interrupted first sync reads every store', {
    timeout: 60_000,
  }, async () => {
    const { state, restarted, collect, stores } = await storeRig(startSimEnv);
    const again = restarted();
    expect((await collect(again.poll(await again.summary()))).calls).toEqual([]);
    // The first sync did not finish: every store is read again, each record already held.
    state.fullAt = null;
    const first = restarted();
    const step = await collect(first.reconcile(await first.summary()));
    expect(step.calls.filter((c) => !c.startsWith('billing ')).sort()).toEqual([...stores].sort());
    expect(step.events).toEqual([]);
  });

  it('a history gone back: the turn and the chase start again', { timeout: 60_000 }, async () => {
    const { detector, collect, poll, inOrder } = await storeRig(startSimEnv);
    for (let i = 0; i < 4; i++) await poll(withPaused(1));
    expect((await poll(withPaused(1))).calls).toEqual([]);
    detector.rewound = 'a test';
    await collect(detector.reconcile(await detector.summary()));
    expect((await poll(withPaused(1))).calls).toEqual(inOrder(0, 3));
  });

  it('counts that differ from the summary: the stores in turn, a tenth of the share a pass, each once for those counts', {
    timeout: 60_000,
  }, async () => {
    const { poll, inOrder } = await storeRig(startSimEnv);
    // A count no read explains: 3 stores a pass until all 10 were read once, then none.
    expect((await poll(withPaused(1))).calls).toEqual(inOrder(0, 3));
    expect((await poll(withPaused(1))).calls).toEqual(inOrder(3, 3));
    expect((await poll(withPaused(1))).calls).toEqual(inOrder(6, 3));
    expect((await poll(withPaused(1))).calls).toEqual(inOrder(9, 1));
    expect((await poll(withPaused(1))).calls).toEqual([]);
    // Other counts: chased again, from where the turn stands.
    expect((await poll(withPaused(2))).calls).toEqual(inOrder(0, 3));
    // Counts that agree again: nothing.
    expect((await poll()).calls).toEqual([]);
  });

  it('a store paused: found by the chase, with its previous status and its record; the chase ends there', {
    timeout: 60_000,
  }, async () => {
    const { state, poll, inOrder, app, firstSync } = await storeRig(startSimEnv);
    const paused = inOrder(1, 1)[0] as string;
    await app.locations.pause(paused);
    const step = await poll();
    expect(step.calls).toEqual(inOrder(0, 3));
    expect(step.events.map((e) => ({ store: e.store, previous: e.previous }))).toEqual([
      { store: paused, previous: { status: 'active' } },
    ]);
    const store = (await app.locations.get(paused)) as Location;
    const before = firstSync.events.find((e) => e.store === paused)?.id;
    expect(before).toBe(eventId(`l|${paused}|>${storeEntryOf({ ...store, status: 'active' }).hash}`));
    expect(step.events[0]?.id).toBe(
      eventId(`l|${paused}|${storeEntryOf({ ...store, status: 'active' }).hash}>${storeEntryOf(store).hash}`),
    );
    expect(storeRecords(step)).toEqual([['l', 1, `p|${storeEntryOf(store).hash}`]]);
    expect(state.family(storeFamily).counts).toMatchObject({ read: 10, active: 9, paused: 1 });
    // The counts agree: nothing more read.
    expect((await poll()).calls).toEqual([]);
  });

  it('a store whose bookings moved: read in the same pass, after them, once', { timeout: 60_000 }, async () => {
    // No cadence to speak of: every store read is one that moved.
    const { env, poll } = await storeRig(startSimEnv, { refreshMs: 1_000 * DAY, visitsPerWeek: 40 });
    let moved = 0;
    for (let i = 0; i < 200 && moved < 3; i++) {
      env.clock.advance(10 * 60_000);
      const step = await poll();
      expect(
        step.calls.filter((c) => !c.startsWith('billing ')),
        step.moved.join(),
      ).toEqual([...new Set(step.moved)]);
      if (step.moved.length > 0) {
        moved++;
        // Read once: the next pass, with nothing new, reads no store.
        expect((await poll()).calls).toEqual([]);
      }
    }
    expect(moved).toBe(3);
  });

  it('a store renamed: an event with nothing previous', { timeout: 60_000 }, async () => {
    const { poll, inOrder, app } = await storeRig(startSimEnv, { refreshMs: 100 * MINUTE });
    const renamed = inOrder(0, 1)[0] as string;
    await app.locations.update(renamed, { name: 'Renamed' });
    const step = await poll(withPaused(1));
    expect(step.events.map((e) => ({ store: e.store, previous: e.previous }))).toEqual([
      { store: renamed, previous: {} },
    ]);
  });

  it('a store the summary counts and the state does not hold: this month’s billing, once per total and scanSpacing; the store read as new', {
    timeout: 60_000,
  }, async () => {
    const { env, state, poll, app } = await storeRig(startSimEnv, { scanSpacing: MINUTE });
    await app.locations.enroll({ partner_location_id: 'new-store', name: 'New', address: ADDRESS });
    const step = await poll();
    expect(step.calls).toEqual(['billing 2026-11', 'new-store']);
    expect(step.events.map((e) => e.store)).toEqual(['new-store']);
    expect(storeRecords(step)).toEqual([
      ['s', 'new-store'],
      ['l', 10, expect.stringMatching(/^a\|[0-9a-f]{16}$/)],
    ]);
    expect(state.stores).toHaveLength(11);
    // A total billing cannot explain: scanned once, then not until the total moves and the spacing passed.
    const more = (n: number) => (s: Summary) => ({ ...s, locations: { ...s.locations, total: s.locations.total + n } });
    env.clock.advance(MINUTE);
    expect((await poll(more(1))).calls).toEqual(['billing 2026-11', ...state.stores.toArray().slice(0, 3)]);
    env.clock.advance(MINUTE);
    expect((await poll(more(1))).calls).toEqual(state.stores.toArray().slice(3, 6));
    // A new total, the spacing passed since the last scan: billing again; the chase of the new counts goes on in turn.
    expect((await poll(more(2))).calls).toEqual(['billing 2026-11', ...state.stores.toArray().slice(6, 9)]);
    // Within the spacing: no billing, however the total moves.
    env.clock.advance(MINUTE - 1);
    expect((await poll(more(3))).calls).toEqual([...state.stores.toArray().slice(9, 11), state.stores.get(0)]);
    env.clock.advance(1);
    expect((await poll(more(3))).calls).toEqual(['billing 2026-11', ...state.stores.toArray().slice(1, 4)]);
    // Explained again: no billing, no chase.
    env.clock.advance(MINUTE);
    expect((await poll()).calls).toEqual([]);
  });

  it('a store the service no longer knows: skipped, no event; another refusal is thrown', {
    timeout: 60_000,
  }, async () => {
    const { env, poll, inOrder } = await storeRig(startSimEnv);
    const gone = inOrder(0, 1)[0] as string;
    const next = inOrder(3, 1)[0] as string;
    env.sandbox.faults.next({ status: 404, path: new RegExp(`/locations/${gone}$`) });
    const step = await poll(withPaused(1));
    expect(step.calls).toEqual(inOrder(0, 3));
    expect(step.events).toEqual([]);
    env.sandbox.faults.next({ status: 403, path: new RegExp(`/locations/${next}$`) });
    // The turn stands at the fourth store; the chase of new counts reads on from there.
    const refused = poll(withPaused(2));
    await expect(refused).rejects.toMatchObject({ status: 403 });
  });

  it('a reconciliation after the first: the stores billing lists added and read; the chase only with a summary', {
    timeout: 60_000,
  }, async () => {
    const { detector, collect, state, app, inOrder } = await storeRig(startSimEnv);
    await app.locations.enroll({ partner_location_id: 'new-store', name: 'New', address: ADDRESS });
    const summary = await detector.summary();
    const step = await collect(detector.reconcile(summary));
    expect(storeReads(step)).toEqual(['new-store']);
    expect(storeRecords(step).map((r) => r.slice(0, 2))).toEqual([
      ['s', 'new-store'],
      ['l', 10],
    ]);
    expect(state.stores).toHaveLength(11);
    // Counts that differ: a reconciliation chases as a poll does; without a summary it does not.
    expect(storeReads(await collect(detector.reconcile(withPaused(1)(await detector.summary()))))).toEqual(
      inOrder(0, 3),
    );
    expect(storeReads(await collect(detector.reconcile()))).toEqual([]);
  });
});

describe('the store state', () => {
  it('counts each store once, by its last record; forgets all; saves nothing when none was read', () => {
    const stores = new StoreState();
    expect(stores.snapshot()).toEqual({});
    const hash = '0123456789abcdef';
    stores.apply(['l', 0, `a|${hash}|m`]);
    stores.apply(['l', 1, `t|${hash}`]);
    stores.apply(['l', 2, `~closed|${hash}`]);
    expect(stores.counts).toEqual({ read: 3, active: 1, paused: 0, terminated: 1, hours_missing: 1 });
    stores.apply(['l', 0, `p|${hash}`]);
    expect(stores.counts).toEqual({ read: 3, active: 0, paused: 1, terminated: 1, hours_missing: 0 });
    expect(stores.storeOf(['l', 2, `p|${hash}`])).toBe(2);
    expect(isPackedStore([`a|${hash}`])).toBe(false);
    expect(isPackedStore(`a|${hash}`)).toBe(true);
    expect(stores.snapshot()).toEqual({ locations: { 0: `p|${hash}`, 1: `t|${hash}`, 2: `~closed|${hash}` } });
    expect([...stores.restore({ locations: { 0: `p|${hash}` } }, 1)]).toEqual([['l', 0, `p|${hash}`]]);
    expect([...stores.restore({}, 1)]).toEqual([]);
    expect(() => [...stores.restore({ locations: { 1: `p|${hash}` } }, 1)]).toThrow(
      /the snapshot holds the record of store number 1, which it does not list/,
    );
    stores.forget();
    expect(stores.counts).toEqual({ read: 0, active: 0, paused: 0, terminated: 0, hours_missing: 0 });
    expect(stores.record(0)).toBeUndefined();
    expect(stores.snapshot()).toEqual({});
  });
});
