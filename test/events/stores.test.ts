/**
 * The store family (`stores` of `watchEvents()`), on the sandbox on simulated time, its calls
 * pinned from the request log: a first sync reads each store once; a store paused with nothing
 * else moving is chased from the summary's counts in the next poll; a store renamed is found by
 * the cadence; a store whose booking moved is read in the same pass; idle passes read no store;
 * a reconciliation that is due reads no more stores than a poll. Without `stores`, no store is
 * read and no `location.updated` comes, and the event types say so.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  memoryCheckpoint,
  watchEvents,
  type PartnerEvent,
  type PartnerEventWithStores,
  type Watcher,
  type WatchOptions,
  type WatchOptionsWithStores,
} from '../../src/events/index.js';
import { useSimEnv, type SimEnv } from './support.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface PassLog {
  calls: string[];
  events: string[];
  /** The store of each event. */
  stores: string[];
  pass: string;
  at: number;
}

/** A change made by the app (another client: not in the watcher's log) once the service's time reaches `at`. */
interface Scripted {
  at: number;
  run: (env: SimEnv) => Promise<void>;
  done?: boolean;
}

async function run(
  startSimEnv: ReturnType<typeof useSimEnv>,
  options: Partial<WatchOptionsWithStores> | Partial<WatchOptions>,
  hours: number,
  script: Scripted[] = [],
  visitsPerWeek = 0,
  /** A store billing leaves out (a service whose billing lists fewer stores than the summary counts). */
  unbilled?: string,
) {
  const env = await startSimEnv('msw', { now: '2026-11-10T12:00:00Z', visitsPerWeek });
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation: 3 });
  const app = env.client();
  const passes: PassLog[] = [];
  let watcher: Watcher<PartnerEventWithStores>;
  const start = env.clock.now();
  const client = env.client({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname.replace('/partner/v1', '');
      if (path === '/summary') {
        if (env.clock.now() >= start + hours * HOUR) watcher.stop();
        for (const step of script)
          if (!step.done && env.clock.now() >= start + step.at) {
            step.done = true;
            await step.run(env);
          }
        const ended = watcher.stats.polls + watcher.stats.errors;
        if (passes.at(-1)?.at !== ended)
          passes.push({ calls: [], events: [], stores: [], pass: 'poll (not due)', at: ended });
      }
      const current = passes.at(-1) as PassLog;
      // The pass is chosen after its summary: named from its next call on.
      if (path !== '/summary' && watcher.stats.lastPass)
        current.pass = `${watcher.stats.lastPass.kind} (${watcher.stats.lastPass.reason})`;
      const status = url.searchParams.get('status');
      current.calls.push(path + (status ? ` status=${status}` : ''));
      const response = await fetch(request);
      if (unbilled === undefined || path !== '/billing/monthly') return response;
      const body = (await response.json()) as { items: Array<{ partner_location_id: string }> };
      body.items = body.items.filter((row) => row.partner_location_id !== unbilled);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    },
  });
  watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), ...options } as WatchOptionsWithStores);
  const events: Array<{ event: PartnerEventWithStores; at: number }> = [];
  for await (const event of watcher) {
    (passes.at(-1) as PassLog).events.push(event.type);
    (passes.at(-1) as PassLog).stores.push(event.partner_location_id);
    events.push({ event, at: env.clock.now() });
  }
  await app.close?.();
  return { env, passes, events, stats: watcher.stats, start };
}

const storeReads = (pass: PassLog) => pass.calls.filter((c) => /^\/locations\/[^/]+$/.test(c));
const storeIds = (env: SimEnv) => env.sandbox.inspect.stores(env.key).map((s) => s.partner_location_id);

describe('the store family', () => {
  const startSimEnv = useSimEnv();

  it('a first sync reads each store once; a pause is chased from the summary in the next poll; a rename waits for the cadence', {
    timeout: 120_000,
  }, async () => {
    let paused = '';
    let renamed = '';
    let pausedAt = 0;
    let renamedAt = 0;
    let enrolledAt = 0;
    const { env, passes, events, stats } = await run(startSimEnv, { stores: { refreshMs: 2 * HOUR } }, 5, [
      {
        // Between two reconciliations (one every maxLag, 15 minutes): a poll finds it.
        at: 37 * MINUTE,
        run: async (e) => {
          paused = storeIds(e)[3] as string;
          pausedAt = e.clock.now();
          await e.client().locations.pause(paused);
        },
      },
      {
        at: 60 * MINUTE,
        run: async (e) => {
          renamed = storeIds(e)[6] as string;
          renamedAt = e.clock.now();
          await e.client().locations.update(renamed, { name: 'Renamed by the test' });
        },
      },
      {
        at: 97 * MINUTE,
        run: async (e) => {
          enrolledAt = e.clock.now();
          await e.client().locations.enroll({
            partner_location_id: 'new-store',
            name: 'New',
            address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
          });
        },
      },
    ]);
    const stores = storeIds(env).filter((id) => id !== 'new-store');

    // First sync: every store read once, each delivered once, with nothing previous.
    const first = passes[0] as PassLog;
    expect(first.pass).toBe('reconciliation (first sync)');
    expect(storeReads(first).sort()).toEqual(stores.map((id) => `/locations/${id}`).sort());
    const firstReads = events.filter((e) => e.event.type === 'location.updated').slice(0, stores.length);
    expect(firstReads.map((e) => e.event.partner_location_id).sort()).toEqual([...stores].sort());
    for (const { event } of firstReads) if (event.type === 'location.updated') expect(event.previous).toEqual({});

    // The pause: the summary's counts differ, so the next poll reads the stores in turn (all 10
    // fit in a tenth of the budget) and delivers the one that changed, with its previous status.
    const pause = events.find((e) => e.event.type === 'location.updated' && e.event.partner_location_id === paused);
    const pausedEvents = events.filter(
      (e) => e.event.type === 'location.updated' && e.event.partner_location_id === paused && e.at >= pausedAt,
    );
    expect(pausedEvents).toHaveLength(1);
    const pauseEvent = pausedEvents[0]?.event;
    expect(pauseEvent?.type === 'location.updated' && pauseEvent.previous).toEqual({ status: 'active' });
    expect(pauseEvent?.type === 'location.updated' && pauseEvent.data.status).toBe('paused');
    expect(Date.parse(pauseEvent?.created_at ?? '') - pausedAt).toBeLessThanOrEqual(MINUTE);
    expect(pause).toBeDefined();
    const chase = passes.filter((p) => p.events.length === 1 && p.events[0] === 'location.updated');
    const pausePass = chase.find((p) => storeReads(p).includes(`/locations/${paused}`)) as PassLog;
    expect(pausePass.pass).toBe('poll (not due)');
    expect(pausePass.calls[0]).toBe('/summary');
    expect(storeReads(pausePass)).toHaveLength(stores.length);
    expect(pausePass.calls).toHaveLength(1 + stores.length);

    // The rename moves no count: found by the cadence (every store within refreshMs), one store a read.
    const rename = events.filter(
      (e) => e.event.type === 'location.updated' && e.event.partner_location_id === renamed && e.at >= renamedAt,
    );
    expect(rename).toHaveLength(1);
    expect(rename[0]?.event.type === 'location.updated' && rename[0].event.previous).toEqual({});
    expect(rename[0]?.event.type === 'location.updated' && rename[0].event.data.name).toBe('Renamed by the test');
    const lag = Date.parse(rename[0]?.event.created_at ?? '') - renamedAt;
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThanOrEqual(2 * HOUR + MINUTE);

    // A new store with nothing yet: this month's billing lists it, then it is read; no chase (the
    // total is explained by it).
    const enrolled = events.filter((e) => e.event.partner_location_id === 'new-store');
    expect(enrolled.map((e) => e.event.type)).toEqual(['location.updated']);
    expect(Date.parse(enrolled[0]?.event.created_at ?? '') - enrolledAt).toBeLessThanOrEqual(MINUTE);
    const enrollPass = passes.find((p) => p.stores.includes('new-store')) as PassLog;
    expect(enrollPass.pass).toBe('poll (not due)');
    expect(enrollPass.calls).toEqual(['/summary', '/billing/monthly', '/locations/new-store']);

    // After the first sync, no pass reads more stores than the cadence owes, but the chase: about
    // one every refreshMs / 10 = 12 minutes; a reconciliation that is due reads no store more.
    const later = passes.slice(1).filter((p) => p !== pausePass && p !== enrollPass);
    for (const pass of later) expect(storeReads(pass).length, pass.pass).toBeLessThanOrEqual(1);
    const cadenceReads = later.reduce((n, p) => n + storeReads(p).length, 0);
    const hoursAfterFirst = 5;
    expect(cadenceReads).toBeGreaterThanOrEqual(Math.floor((hoursAfterFirst / 2) * stores.length) - 2);
    expect(cadenceReads).toBeLessThanOrEqual(Math.ceil((hoursAfterFirst / 2) * stores.length) + 1);
    expect(later.some((p) => p.pass === 'reconciliation (due)')).toBe(true);
    // The stores never ask for a reconciliation: every one after the first is due.
    expect(new Set(passes.slice(1).map((p) => p.pass))).toEqual(new Set(['poll (not due)', 'reconciliation (due)']));
    expect(stats.lastPass).not.toBeNull();
  });

  it('a read that finds a store unchanged: onUnchanged with the service’s time, no event, nothing saved', {
    timeout: 60_000,
  }, async () => {
    const inner = memoryCheckpoint();
    const saved: string[] = [];
    const checkpoint = new Proxy(inner, {
      get(target, key) {
        if (key === 'save')
          return (record: string, options?: { replace?: boolean }) => {
            saved.push(record);
            return target.save(record, options);
          };
        const value = target[key as keyof typeof target];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const unchanged: Array<{ id: string; at: number }> = [];
    let savedAfterFirst = 0;
    const onUnchanged = (store: { partner_location_id: string }, at: string) => {
      savedAfterFirst ||= saved.length;
      unchanged.push({ id: store.partner_location_id, at: Date.parse(at) });
    };
    const { env, passes, events, start } = await run(
      startSimEnv,
      { checkpoint, stores: { refreshMs: HOUR, onUnchanged } },
      3,
    );
    const [first, ...later] = passes;
    expect(events.filter((e) => e.event.type === 'location.updated').length).toBe(storeIds(env).length);
    expect(storeReads(first as PassLog).length).toBe(storeIds(env).length);
    // Every later read found its store as delivered: told, with no event; the cadence read each store again.
    expect(later.flatMap((p) => p.events)).toEqual([]);
    const reads = later.flatMap((p) => storeReads(p).map((call) => call.replace('/locations/', '')));
    expect(unchanged.map((u) => u.id)).toEqual(reads);
    expect(new Set(reads)).toEqual(new Set(storeIds(env)));
    // The service's time of each answer (simulated: far from the machine's clock), in order.
    for (const [i, u] of unchanged.entries()) {
      expect(u.at).toBeGreaterThanOrEqual(start);
      expect(u.at).toBeLessThanOrEqual(env.clock.now() + 1_000);
      if (i > 0) expect(u.at).toBeGreaterThanOrEqual((unchanged[i - 1] as { at: number }).at);
    }
    // No store record saved for them.
    expect(saved.slice(savedAfterFirst).filter((record) => record.includes('["l",'))).toEqual([]);
  });

  it('a store whose bookings or videos moved is read in the same pass, and no other but in turn', {
    timeout: 60_000,
  }, async () => {
    const { passes } = await run(startSimEnv, { stores: true }, 24, [], 10);
    const moved = passes.slice(1).filter((p) => p.events.some((type) => type !== 'location.updated'));
    expect(moved.length).toBeGreaterThan(5);
    for (const pass of moved) {
      const stores = new Set(pass.stores);
      const reads = storeReads(pass).map((call) => call.replace('/locations/', ''));
      // Each store that moved, once; at most one more, the cadence's (every 6 hours: one of 10 stores every 36 minutes).
      expect(reads.filter((id) => stores.has(id)).sort(), pass.calls.join(' | ')).toEqual([...stores].sort());
      expect(reads.length - stores.size, pass.calls.join(' | ')).toBeLessThanOrEqual(1);
      // Read after the lists that moved them: the last calls of the pass.
      expect(pass.calls.slice(-reads.length)).toEqual(storeReads(pass));
    }
    const idle = passes.slice(1).filter((p) => p.events.length === 0 && p.pass === 'poll (not due)');
    expect(idle.filter((p) => p.calls.length > 2)).toEqual([]);
    const cadence = idle.reduce((n, p) => n + storeReads(p).length, 0);
    expect(cadence).toBeLessThanOrEqual(40);
  });

  it('a store the summary counts and billing does not list: billing is read once for that total, not every poll', {
    timeout: 60_000,
  }, async () => {
    const enroll = (id: string) => async (e: SimEnv) =>
      void (await e.client().locations.enroll({
        partner_location_id: id,
        name: id,
        address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
      }));
    const { passes } = await run(
      startSimEnv,
      { stores: true },
      3,
      [
        { at: 20 * MINUTE, run: enroll('hidden') },
        { at: 90 * MINUTE, run: enroll('seen') },
      ],
      0,
      'hidden',
    );
    const polls = passes.slice(1).filter((p) => p.pass === 'poll (not due)');
    const scans = polls.filter((p) => p.calls.includes('/billing/monthly'));
    // Once after the hidden one (the total unexplained since), once after the second; each
    // followed by one chase of the stores in turn (the counts still differ: the hidden one is never read).
    expect(scans).toHaveLength(2);
    expect(scans[0]?.calls.slice(0, 2)).toEqual(['/summary', '/billing/monthly']);
    expect(scans[1]?.calls.slice(0, 2)).toEqual(['/summary', '/billing/monthly']);
    // The second store billing lists is read (by that scan or by a reconciliation's billing before it).
    expect(passes.flatMap(storeReads)).toContain('/locations/seen');
    expect(polls.filter((p) => p.calls.length > 2).length).toBeLessThanOrEqual(2 + 3 * 5);
  });

  it('turned on for a checkpoint written without it: each store read once, as new; nothing else again', {
    timeout: 60_000,
  }, async () => {
    const env = await startSimEnv('msw', { now: '2026-11-10T12:00:00Z', visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 5, reservationsPerLocation: 2 });
    const checkpoint = memoryCheckpoint();
    // The first sync, to its end: stopped at the next pass's summary.
    let before: Watcher<PartnerEvent> | undefined;
    const first = env.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith('/summary') && (before?.stats.polls ?? 0) >= 1) before?.stop();
        return fetch(request);
      },
    });
    before = watchEvents(first, { checkpoint });
    let delivered = 0;
    for await (const _ of before) delivered++;
    expect(delivered).toBeGreaterThanOrEqual(10);
    const reads: string[] = [];
    const client = env.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const path = new URL(request.url).pathname.replace('/partner/v1', '');
        if (/^\/locations\/[^/]+$/.test(path)) reads.push(path);
        return fetch(request);
      },
    });
    const after = watchEvents(client, { checkpoint, stores: true });
    const events: PartnerEventWithStores[] = [];
    for await (const event of after) {
      events.push(event);
      if (events.length === 5) break;
    }
    const ids = storeIds(env).sort();
    expect(events.map((e) => e.type)).toEqual(Array(5).fill('location.updated'));
    expect(events.map((e) => e.partner_location_id).sort()).toEqual(ids);
    expect(reads.sort()).toEqual(ids.map((id) => `/locations/${id}`));
    expect(after.stats.lastPass).toEqual({ kind: 'poll', reason: 'not due' });
  });

  it('without stores: no store read, no location.updated', { timeout: 60_000 }, async () => {
    const { env, passes, events } = await run(startSimEnv, {}, 2, [
      { at: 30 * MINUTE, run: async (e) => void (await e.client().locations.pause(storeIds(e)[0] as string)) },
    ]);
    expect(passes.flatMap(storeReads)).toEqual([]);
    expect(events.filter((e) => e.event.type === 'location.updated')).toEqual([]);
    const created = events.filter((e) => e.event.type === 'reservation.created');
    expect(created.length).toBe(env.sandbox.inspect.reservations(env.key).length);
    for (const { event } of events)
      expect(['reservation.created', 'reservation.updated', 'video.published']).toContain(event.type);
  });

  it('the event type includes location.updated only for a watcher started with stores', async () => {
    const env = await startSimEnv('msw');
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    expectTypeOf(watchEvents(client, { checkpoint })).toEqualTypeOf<Watcher<PartnerEvent>>();
    expectTypeOf(watchEvents(client, { checkpoint, stores: true })).toEqualTypeOf<Watcher<PartnerEventWithStores>>();
    expectTypeOf(watchEvents(client, { checkpoint, stores: { refreshMs: HOUR } })).toEqualTypeOf<
      Watcher<PartnerEventWithStores>
    >();
    const maybe = Math.random() > 2;
    // @ts-expect-error a flag that may be true could bring store events to a loop typed without them
    watchEvents(client, { checkpoint, stores: maybe });
    // A switch over PartnerEvent stays exhaustive.
    const kind = (event: PartnerEvent): string => {
      switch (event.type) {
        case 'reservation.created':
        case 'reservation.updated':
        case 'video.published':
          return event.type;
        default:
          return event satisfies never;
      }
    };
    expect(kind).toBeTypeOf('function');
    for (const stores of [0, 'yes', null, { refreshMs: 10 }, { refreshMs: Number.NaN }, { onUnchanged: 'log' }]) {
      expect(() => watchEvents(client, { checkpoint, stores } as unknown as WatchOptionsWithStores)).toThrow(
        /The option stores is true, false or \{ refreshMs, onUnchanged \}/,
      );
    }
  });
});
