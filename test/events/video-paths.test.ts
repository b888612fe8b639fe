/**
 * The video finder on its own, driven call by call on simulated time (no detector, no watcher, no
 * waits): its poll and its full reconciliation against a service whose billing and content the test
 * writes (each store's videos and posting times, the month it was enrolled in, a billing count
 * that disagrees), its reads pinned from the requests it sends. What is read and in what order,
 * what each read finds (events, and records with no event), and when it stops. Fast enough to run
 * once per mutant of videos.ts (poll-paths.test.ts and reconcile-paths.test.ts pin the same
 * finder beside the others on the sandbox's own data).
 */
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/index.js';
import { CallBudget } from '../../src/events/call-budget.js';
import { eventId } from '../../src/events/event-id.js';
import { Lists, type Found, type Reconciliation } from '../../src/events/finder.js';
import { BookingMonths } from '../../src/events/month-bounds.js';
import type { StateRecord } from '../../src/events/records.js';
import { ServiceClock } from '../../src/events/service-clock.js';
import { StoreSet } from '../../src/events/store-set.js';
import { WatchState } from '../../src/events/state.js';
import { videoFamily } from '../../src/events/videos.js';
import { useSimEnv, type SimEnv } from './support.js';

const HOUR = 3_600_000;

/** A video as the service lists it: its id and when it was posted (ISO 8601 UTC). */
interface Clip {
  id: string;
  at: string;
}

interface ServiceStore {
  /** The first month billing lists the store for. */
  enrolled: string;
  videos: Clip[];
}

interface Step {
  calls: string[];
  found: Found[];
  /** Each event: `store video_id`. */
  events: string[];
  records: StateRecord[];
}

const billing = (month: string) => `billing ${month}`;
const content = (store: string) => `content ${store}`;

/**
 * The service: stores with their videos, billing counted by UTC month from them unless `billed`
 * says otherwise (`store|month` → count); every request logged, and any other route refused.
 */
function videoService(env: SimEnv) {
  const stores = new Map<string, ServiceStore>();
  const billed = new Map<string, number>();
  const log: string[] = [];
  const answer = (body: unknown) =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', date: env.sandbox.clock.now().toUTCString() },
    });
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(new Request(input, init).url);
    const path = url.pathname.replace('/partner/v1', '');
    expect(url.searchParams.get('limit'), path).toBe('200');
    expect(url.searchParams.has('cursor'), path).toBe(false);
    if (path === '/billing/monthly') {
      const month = url.searchParams.get('month') as string;
      log.push(billing(month));
      const items = [...stores]
        .filter(([, store]) => store.enrolled <= month)
        .map(([id, store]) => ({
          partner_location_id: id,
          videos_published: billed.get(`${id}|${month}`) ?? store.videos.filter((v) => v.at.startsWith(month)).length,
          completed_visits: 0,
          no_shows: 0,
        }));
      return answer({ items, next_cursor: null });
    }
    const store = /^\/locations\/([^/]+)\/content$/.exec(path)?.[1];
    if (store !== undefined) {
      log.push(content(store));
      const items = (stores.get(store)?.videos ?? []).map((v) => ({
        video_id: v.id,
        reservation_id: `r-${v.id}`,
        url: `https://video.example/${v.id}`,
        platform: 'tiktok',
        posted_at: v.at,
      }));
      return answer({ items, next_cursor: null });
    }
    throw new Error(`not a route of this test's service: ${path}`);
  };
  return { stores, billed, log, fetch: fetchFn };
}

/** A video finder with a state of its own (this month's, as a detector leaves it), on the test's service. */
async function rig(startSimEnv: ReturnType<typeof useSimEnv>, now: string, scanSpacing = 0) {
  const env = await startSimEnv('msw', { now, visitsPerWeek: 0 });
  const service = videoService(env);
  const client = env.client({ fetch: service.fetch });
  const state = new WatchState();
  state.apply(['m', now.slice(0, 7)]);
  const clock = new ServiceClock(client.clock);
  const lists = new Lists(
    new CallBudget(client.clock, 1, () => client.rateLimit),
    clock,
    new AbortController().signal,
    () => {},
  );
  const context = {
    client,
    state,
    service: clock,
    local: () => client.clock.monotonic(),
    lists,
    historyWentBack: () => {},
  };
  const start = () => {
    const made = videoFamily.finder?.(context, { scanSpacing, touched: new StoreSet(state) });
    if (!made) throw new Error('the video family has a finder');
    return made;
  };
  let finder = start();
  /** A new finder on the same state: what a process started again holds. */
  const restart = () => {
    finder = start();
  };
  const videos = state.family(videoFamily);
  const collect = async (pass: AsyncGenerator<Found>): Promise<Step> => {
    const step: Step = { calls: [], found: [], events: [], records: [] };
    service.log.length = 0;
    for await (const found of pass) {
      step.found.push(found);
      // Nothing is yielded for nothing.
      expect(found.event !== undefined || found.records.length > 0).toBe(true);
      if (found.event?.type === 'video.published')
        step.events.push(`${found.event.partner_location_id} ${found.event.data.video_id}`);
      step.records.push(...found.records);
    }
    step.calls = [...service.log];
    return step;
  };
  const summary = (videos_published: number) => ({ videos_published }) as Summary;
  const poll = (total: number) => collect(finder.poll(summary(total)));
  /** A pass; its stores with completed visits given as ids, in the order the bookings finder met them. */
  const reconcile = ({
    storesWithCompletedVisits = [],
    ...pass
  }: Omit<Partial<Reconciliation>, 'storesWithCompletedVisits'> & {
    storesWithCompletedVisits?: Iterable<string>;
  } = {}) =>
    collect(
      finder.reconcile({
        firstSync: false,
        earliestMonth: state.month,
        storesWithCompletedVisits: new StoreSet(state, storesWithCompletedVisits),
        bookingMonths: new BookingMonths(),
        storesBilled: new StoreSet(state),
        ...pass,
      }),
    );
  /** The service's videos, counted: its summary's total. */
  const published = () => [...service.stores.values()].reduce((sum, store) => sum + store.videos.length, 0);
  return { env, service, state, videos, poll, reconcile, summary, published, restart };
}

describe('the video finder', () => {
  const startSimEnv = useSimEnv();

  /** Stores a (a video last month, one this month), b (one this month), c (enrolled this month, none): all delivered by a first sync. */
  async function synced() {
    const r = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    r.service.stores.set('a', {
      enrolled: '2026-01',
      videos: [
        { id: 'a1', at: '2026-10-20T10:00:00Z' },
        { id: 'a2', at: '2026-11-03T10:00:00Z' },
      ],
    });
    r.service.stores.set('b', { enrolled: '2026-01', videos: [{ id: 'b1', at: '2026-11-05T10:00:00Z' }] });
    r.service.stores.set('c', { enrolled: '2026-11', videos: [] });
    const first = await r.reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['a', 'b']) });
    // c, which billing lists with none, is not read.
    expect(first.calls).toEqual([billing('2026-11'), billing('2026-10'), content('a'), content('b')]);
    expect(first.events).toEqual(['a a1', 'a a2', 'b b1']);
    expect(r.videos.total).toBe(3);
    return r;
  }

  it('a poll: billing of this month first, then the content of each store whose count grew, each new video an event', async () => {
    const { env, service, state, videos, poll, published } = await synced();
    env.clock.advance(HOUR);
    service.stores.get('a')?.videos.push({ id: 'a3', at: '2026-11-10T12:30:00Z' });
    service.stores.get('b')?.videos.unshift({ id: 'b2', at: '2026-11-10T12:40:00Z' });
    const step = await poll(published());
    // Explained by this month's counts: last month's are not read.
    expect(step.calls).toEqual([billing('2026-11'), content('a'), content('b')]);
    expect(step.events).toEqual(['a a3', 'b b2']);
    const a = state.storeIndex('a') as number;
    const b = state.storeIndex('b') as number;
    // Each event with its record: the store's counts as of that video, and its id.
    expect(step.found.filter((f) => f.event).map((f) => f.records)).toEqual([
      [['v', a, '3|2|1', 'a3']],
      [['v', b, '1|1|0', 'b2']],
    ]);
    expect(videos.videos(b)).toEqual({ seen: 2, cur: 2, prev: 0, edges: [] });
    expect(videos.total).toBe(5);
    const event = step.found[0]?.event;
    expect(event).toEqual({
      id: eventId('v|a3'),
      type: 'video.published',
      created_at: new Date(env.clock.now()).toISOString(),
      partner_location_id: 'a',
      data: {
        video_id: 'a3',
        reservation_id: 'r-a3',
        url: 'https://video.example/a3',
        platform: 'tiktok',
        posted_at: '2026-11-10T12:30:00Z',
      },
    });
    // Explained: nothing read.
    expect((await poll(published())).calls).toEqual([]);
  });

  it('a poll reads only the stores whose count grew, and stops once the total is explained; the next reads on', async () => {
    const { env, service, poll, published } = await synced();
    env.clock.advance(HOUR);
    service.stores.get('b')?.videos.push({ id: 'b2', at: '2026-11-10T12:40:00Z' });
    const one = await poll(published());
    expect(one.calls).toEqual([billing('2026-11'), content('b')]);
    expect(one.events).toEqual(['b b2']);
    service.stores.get('a')?.videos.push({ id: 'a3', at: '2026-11-10T12:50:00Z' });
    service.stores.get('b')?.videos.push({ id: 'b3', at: '2026-11-10T12:55:00Z' });
    const step = await poll(published() - 1);
    expect(step.calls).toEqual([billing('2026-11'), content('a')]);
    expect(step.events).toEqual(['a a3']);
    const next = await poll(published());
    expect(next.calls).toEqual([billing('2026-11'), content('b')]);
    expect(next.events).toEqual(['b b3']);
  });

  it('a total a poll explained, met again once a reconciliation moved the state past it: chased again', async () => {
    const { env, service, state, poll, reconcile, published } = await synced();
    env.clock.advance(HOUR);
    service.stores.get('a')?.videos.push({ id: 'a3', at: '2026-11-10T12:30:00Z' });
    expect((await poll(published())).events).toEqual(['a a3']);
    service.stores.get('b')?.videos.push({ id: 'b2', at: '2026-11-10T12:40:00Z' });
    expect((await reconcile()).events).toEqual(['b b2']);
    // a3 taken down: the service's total is the one the poll explained before.
    service.stores.get('a')?.videos.pop();
    const step = await poll(published());
    expect(step.calls).toEqual([billing('2026-11'), content('a')]);
    expect(step.found).toEqual([{ records: [['v', state.storeIndex('a'), '2|1|1']] }]);
  });

  it('a video gone from a store: its counts corrected by a record with no event, so billing stops pointing at it', async () => {
    const { env, service, state, poll, published } = await synced();
    const a = state.storeIndex('a') as number;
    env.clock.advance(HOUR);
    // This month's (billing: fewer than the state counts).
    service.stores.get('a')?.videos.splice(1, 1);
    const step = await poll(published());
    expect(step.calls).toEqual([billing('2026-11'), content('a')]);
    expect(step.found).toEqual([{ records: [['v', a, '1|0|1']] }]);
    // Last month's: this month's billing agrees, last month's does not.
    service.stores.get('a')?.videos.splice(0, 1);
    const prev = await poll(published());
    expect(prev.calls).toEqual([billing('2026-11'), billing('2026-10'), content('a')]);
    expect(prev.found).toEqual([{ records: [['v', a, '0|0|0']] }]);
    expect((await poll(published())).calls).toEqual([]);
  });
  it('a later reconciliation reads the stores with a completed visit billing left out of a month: those with no video known first, until the total is reached', async () => {
    const { service, state, videos, reconcile, summary, published } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    // a: listed by billing in both months; o: enrolled this month, with an older video; z: enrolled this month, none.
    service.stores.set('a', { enrolled: '2026-01', videos: [{ id: 'a1', at: '2026-11-03T10:00:00Z' }] });
    service.stores.set('o', { enrolled: '2026-11', videos: [{ id: 'o1', at: '2026-09-15T10:00:00Z' }] });
    service.stores.set('z', { enrolled: '2026-11', videos: [] });
    const first = await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['a', 'o', 'z']) });
    expect(first.calls).toEqual([billing('2026-11'), billing('2026-10'), content('a'), content('o'), content('z')]);
    expect(first.events).toEqual(['a a1', 'o o1']);
    expect(videos.videos(state.storeIndex('z') as number).seen).toBe(0);
    // Stores enrolled since with videos of months before: n1 listed for this month only, n2 not yet listed.
    service.stores.set('n1', { enrolled: '2026-11', videos: [{ id: 'n1a', at: '2026-09-10T10:00:00Z' }] });
    service.stores.set('n2', { enrolled: '2026-12', videos: [{ id: 'n2a', at: '2026-09-12T10:00:00Z' }] });
    const completed = new Set(['o', 'n1', 'a', 'z', 'n2']);
    const all = await reconcile({ storesWithCompletedVisits: completed });
    // Those with no video known first; each group in the state's order (z), then stores it has not met (n1, n2).
    expect(all.calls).toEqual([billing('2026-11'), billing('2026-10'), ...['z', 'n1', 'n2', 'o'].map(content)]);
    expect(all.events).toEqual(['n1 n1a', 'n2 n2a']);
    // With the summary's total: read until it is reached. n3 has two videos, n4 one.
    service.stores.set('n3', {
      enrolled: '2026-11',
      videos: [
        { id: 'n3a', at: '2026-09-10T10:00:00Z' },
        { id: 'n3b', at: '2026-09-11T10:00:00Z' },
      ],
    });
    service.stores.set('n4', { enrolled: '2026-11', videos: [{ id: 'n4a', at: '2026-09-12T10:00:00Z' }] });
    const more = new Set([...completed, 'n3', 'n4']);
    const reached = await reconcile({ storesWithCompletedVisits: more, summary: summary(published() - 1) });
    expect(reached.calls).toEqual([billing('2026-11'), billing('2026-10'), content('z'), content('n3')]);
    expect(reached.events).toEqual(['n3 n3a', 'n3 n3b']);
    const rest = await reconcile({ storesWithCompletedVisits: more, summary: summary(published()) });
    expect(rest.calls).toEqual([billing('2026-11'), billing('2026-10'), content('z'), content('n4')]);
    expect(rest.events).toEqual(['n4 n4a']);
    // Reached before any read: none.
    const none = await reconcile({ storesWithCompletedVisits: more, summary: summary(published()) });
    expect(none.calls).toEqual([billing('2026-11'), billing('2026-10')]);
  });

  it('a store billing pointed at in the pass is not read again for its completed visits', async () => {
    const { env, service, reconcile } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    service.stores.set('n', { enrolled: '2026-11', videos: [{ id: 'n1', at: '2026-09-15T10:00:00Z' }] });
    await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['n']) });
    env.clock.advance(HOUR);
    service.stores.get('n')?.videos.push({ id: 'n2', at: '2026-11-10T12:30:00Z' });
    const step = await reconcile({ storesWithCompletedVisits: new Set(['n']) });
    expect(step.calls).toEqual([billing('2026-11'), billing('2026-10'), content('n')]);
    expect(step.events).toEqual(['n n2']);
  });

  it('a first sync: billing from the oldest booking’s month to the last a booking reaches, every store billing lists noted, every store with a completed visit read', async () => {
    const { service, state, videos, reconcile } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    service.stores.set('a', { enrolled: '2026-01', videos: [{ id: 'a1', at: '2026-08-03T10:00:00Z' }] });
    service.stores.set('b', { enrolled: '2026-10', videos: [] });
    service.stores.set('c', { enrolled: '2026-01', videos: [{ id: 'c1', at: '2026-07-03T10:00:00Z' }] });
    const storesBilled = new StoreSet(state);
    const first = await reconcile({
      firstSync: true,
      earliestMonth: '2026-08',
      storesWithCompletedVisits: new Set(['c', 'b']),
      storesBilled,
    });
    expect(first.calls).toEqual([
      ...['2026-08', '2026-09', '2026-10', '2026-11'].map(billing),
      content('c'),
      content('b'),
      content('a'),
    ]);
    expect(first.events).toEqual(['c c1', 'a a1']);
    expect([...storesBilled].sort()).toEqual(['a', 'b', 'c']);
    // Billing's count of a month the state does not count (August) is not kept: only the recent months' are.
    expect(videos.videos(state.storeIndex('a') as number).billed).toBeUndefined();
  });
  it('a poll near a month’s end reads the next month’s billing from the moment a time zone may be in it', async () => {
    for (const [now, months] of [
      ['2026-11-30T09:59:59Z', ['2026-11', '2026-10']],
      ['2026-11-30T10:00:00Z', ['2026-11', '2026-10', '2026-12']],
      ['2026-12-01T00:00:00Z', ['2026-12', '2026-11']],
      ['2027-01-01T02:00:00Z', ['2027-01', '2026-12']],
    ] as const) {
      // A finder that has not reconciled yet (a restart on a saved state): its first poll.
      const { poll } = await rig(startSimEnv, now);
      expect((await poll(1)).calls, now).toEqual(months.map(billing));
    }
  });

  it('a store with a video near a month’s first moment: read while billing’s counts are ones its content has not explained, then only when they move', async () => {
    const { env, service, state, poll, reconcile, published, restart } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    // Posted 3 hours into November (UTC): billing in a zone behind UTC counts it in October.
    service.stores.set('e', { enrolled: '2026-01', videos: [{ id: 'e1', at: '2026-11-01T03:00:00Z' }] });
    service.stores.set('f', { enrolled: '2026-01', videos: [{ id: 'f1', at: '2026-11-05T03:00:00Z' }] });
    service.billed.set('e|2026-10', 1);
    service.billed.set('e|2026-11', 0);
    const first = await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['e', 'f']) });
    expect(first.events).toEqual(['e e1', 'f f1']);
    // Billing's counts of e, read before its content, are ones that content explains: saved with it,
    // so e is not read again while billing says the same.
    expect(state.family(videoFamily).videos(state.storeIndex('e') as number)).toEqual({
      seen: 1,
      cur: 1,
      prev: 0,
      edges: ['2026-11'],
      billed: { '2026-10': 1, '2026-11': 0 },
    });
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
    // A total billing does not explain: its counts read, e not read again.
    env.clock.advance(HOUR);
    expect((await poll(published() + 1)).calls).toEqual([billing('2026-11'), billing('2026-10')]);
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
    // The counts explained are in e's record: a process started again does not read e either.
    restart();
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
    // Billing's count moves (a second video posted there, as billing tells it): e read once, then not again.
    service.billed.set('e|2026-10', 2);
    const moved = await reconcile();
    expect(moved.calls).toEqual([billing('2026-11'), billing('2026-10'), content('e')]);
    // October's count the content does not explain is dropped from e's record; November's stays.
    expect(moved.found).toEqual([{ records: [['v', 0, '1|1|0|2026-11|2026-11:0']] }]);
    const unexplained = await reconcile();
    expect(unexplained.calls).toEqual([billing('2026-11'), billing('2026-10'), content('e')]);
    expect(unexplained.found).toEqual([]);
    // Once billing tells a count the content explains again, it is kept.
    service.billed.set('e|2026-10', 0);
    service.billed.set('e|2026-11', 1);
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10'), content('e')]);
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
    // The service's history went back: the counts explained go with the store's record, and the
    // first sync after it saves them again.
    state.apply(['r', env.clock.now()]);
    state.apply(['m', '2026-11']);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 0, cur: 0, prev: 0, edges: [] });
    const again = await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['e', 'f']) });
    expect(again.events).toEqual(['e e1', 'f f1']);
    expect((await reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
  });

  it("a first sync over older months saves billing's counts of this month and the last only, and none for a store billing does not list", async () => {
    const { service, state, videos, reconcile } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    service.stores.set('p', {
      enrolled: '2026-01',
      videos: [
        { id: 'p1', at: '2026-09-01T02:00:00Z' },
        { id: 'p2', at: '2026-11-01T03:00:00Z' },
      ],
    });
    // Enrolled next month: billing lists it for none of the months read; its content is read for its completed visits.
    service.stores.set('q', { enrolled: '2026-12', videos: [{ id: 'q1', at: '2026-11-01T04:00:00Z' }] });
    const first = await reconcile({
      firstSync: true,
      earliestMonth: '2026-09',
      storesWithCompletedVisits: new Set(['p', 'q']),
    });
    expect(first.calls).toEqual([
      billing('2026-09'),
      billing('2026-10'),
      billing('2026-11'),
      content('p'),
      content('q'),
    ]);
    expect(first.events).toEqual(['p p1', 'p p2', 'q q1']);
    expect(videos.videos(state.storeIndex('p') as number)).toEqual({
      seen: 2,
      cur: 1,
      prev: 0,
      edges: ['2026-11'],
      billed: { '2026-10': 0, '2026-11': 1 },
    });
    expect(videos.videos(state.storeIndex('q') as number)).toEqual({ seen: 1, cur: 1, prev: 0, edges: ['2026-11'] });
  });

  it('a video billing counts in next month already (a store east of UTC): found, and the store not read again while that count holds', async () => {
    const { env, service, poll, reconcile, published } = await rig(startSimEnv, '2026-11-30T18:00:00Z');
    // a: a video this month and one last month, none near a month's first moment.
    service.stores.set('a', {
      enrolled: '2026-01',
      videos: [
        { id: 'a0', at: '2026-10-05T10:00:00Z' },
        { id: 'a1', at: '2026-11-05T10:00:00Z' },
      ],
    });
    service.stores.set('g', { enrolled: '2026-01', videos: [] });
    // h: no completed visit, none in any month: not read.
    service.stores.set('h', { enrolled: '2026-01', videos: [] });
    const first = await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['a', 'g']) });
    expect(first.calls).toEqual([
      billing('2026-11'),
      billing('2026-10'),
      billing('2026-12'),
      content('a'),
      content('g'),
    ]);
    env.clock.advance(HOUR);
    // Posted at 19:00 UTC, December 1st in UTC+14: billing counts it in December.
    service.stores.get('g')?.videos.push({ id: 'g1', at: '2026-11-30T19:00:00Z' });
    service.billed.set('g|2026-11', 0);
    service.billed.set('g|2026-12', 1);
    const step = await poll(published());
    expect(step.calls).toEqual([billing('2026-11'), billing('2026-10'), billing('2026-12'), content('g')]);
    expect(step.events).toEqual(['g g1']);
    // Stores billing lists with none in December (a) are not read. g once more, for November's
    // count (its video is near December's first moment: only December's was explained), then not again.
    env.clock.advance(HOUR);
    expect((await poll(published() + 1)).calls).toEqual([
      billing('2026-11'),
      content('g'),
      billing('2026-10'),
      billing('2026-12'),
    ]);
    env.clock.advance(HOUR);
    expect((await poll(published() + 2)).calls).toEqual([billing('2026-11'), billing('2026-10'), billing('2026-12')]);
  });
  it('a store’s content: a video listed twice counts once; this month’s and last month’s counted; the month starts near a video from last month on, once each', async () => {
    const { service, state, videos, reconcile } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    const k1 = { id: 'k1', at: '2026-11-01T05:00:00Z' };
    service.stores.set('k', {
      enrolled: '2026-01',
      videos: [
        k1,
        { id: 'k2', at: '2026-11-01T06:00:00Z' },
        k1,
        { id: 'k3', at: '2026-10-01T02:00:00Z' },
        { id: 'k4', at: '2026-09-01T02:00:00Z' },
        { id: 'k5', at: '2026-10-15T12:00:00Z' },
      ],
    });
    const first = await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['k']) });
    expect(first.events).toEqual(['k k1', 'k k2', 'k k3', 'k k4', 'k k5']);
    expect(first.found.filter((f) => f.event).map((f) => f.records)).toEqual([
      [
        ['s', 'k'],
        ['v', 0, '1|1|0|2026-11', 'k1'],
      ],
      [['v', 0, '2|2|0|2026-11', 'k2']],
      [['v', 0, '3|2|1|2026-11,2026-10', 'k3']],
      [['v', 0, '4|2|1|2026-11,2026-10', 'k4']],
      [['v', 0, '5|2|2|2026-11,2026-10', 'k5']],
    ]);
    // Billing's counts, read before the content, saved with k where the content explains them:
    // October's 2, not November's 3 (billing counts k1 as often as the list shows it).
    expect(first.records.at(-1)).toEqual(['v', 0, '5|2|2|2026-11,2026-10|2026-10:2']);
    expect(videos.videos(state.storeIndex('k') as number)).toEqual({
      seen: 5,
      cur: 2,
      prev: 2,
      edges: ['2026-11', '2026-10'],
      billed: { '2026-10': 2 },
    });
    expect(videos.total).toBe(5);
  });

  it('counts the content no longer matches are corrected by a record with no event: seen, this month’s, last month’s, the month starts, the ids of a store counted by an older version', async () => {
    /** Store s, its videos delivered by a first sync; `change` then alters the service or the state, and the pass reads s. */
    const corrected = async (
      videosAt: string[],
      enrolled: string,
      change: (r: Awaited<ReturnType<typeof rig>>, store: number) => void,
      pass: 'reconciliation' | 'completed visits',
    ) => {
      const r = await rig(startSimEnv, '2026-11-10T12:00:00Z');
      r.service.stores.set('s', { enrolled, videos: videosAt.map((at, i) => ({ id: `s${i}`, at })) });
      await r.reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['s']) });
      const store = r.state.storeIndex('s') as number;
      change(r, store);
      const step = await r.reconcile(pass === 'reconciliation' ? {} : { storesWithCompletedVisits: new Set(['s']) });
      expect(step.calls).toEqual([billing('2026-11'), billing('2026-10'), content('s')]);
      expect(step.events).toEqual([]);
      // Settled: the next pass does not read it again (a store with a video near a month's first
      // moment, once more: billing's counts of it were not read with its content yet).
      if (step.records.some((record) => record[0] === 'v' && String(record[2]).includes('-')))
        expect((await r.reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10'), content('s')]);
      expect((await r.reconcile()).calls).toEqual([billing('2026-11'), billing('2026-10')]);
      return step.found;
    };
    const video = (r: Awaited<ReturnType<typeof rig>>) => r.service.stores.get('s')?.videos[0] as Clip;
    // An August video gone (billing does not count August: read for the completed visits of a store enrolled this month).
    expect(
      await corrected(
        ['2026-08-05T10:00:00Z', '2026-11-03T10:00:00Z'],
        '2026-11',
        (r) => r.service.stores.get('s')?.videos.shift(),
        'completed visits',
      ),
    ).toEqual([{ records: [['v', 0, '1|1|0']] }]);
    // A video re-dated from August to this month, and to last month: billing points at the store.
    for (const [at, packed] of [
      ['2026-11-03T10:00:00Z', '1|1|0'],
      ['2026-10-03T10:00:00Z', '1|0|1'],
    ] as const) {
      const redated = await corrected(['2026-08-05T10:00:00Z'], '2026-01', (r) => (video(r).at = at), 'reconciliation');
      expect(redated, at).toEqual([{ records: [['v', 0, packed]] }]);
    }
    // A checkpoint of a version that kept no month starts.
    expect(
      await corrected(
        ['2026-11-01T03:00:00Z'],
        '2026-11',
        (r, store) => r.state.apply(['v', store, '1|1|0']),
        'completed visits',
      ),
    ).toEqual([{ records: [['v', 0, '1|1|0|2026-11']] }]);
    // A checkpoint of a version that kept no ids: the ids listed are taken as those delivered, and saved.
    const older = await corrected(
      ['2026-11-02T10:00:00Z', '2026-11-03T10:00:00Z'],
      '2026-11',
      (r, store) => {
        const snapshot = r.videos.snapshot();
        r.videos.forget();
        for (const record of r.videos.restore({ videos: snapshot.videos }, 1)) r.videos.apply(record);
        expect(r.videos.delivered(store)).toBeUndefined();
      },
      'completed visits',
    );
    expect(older).toEqual([{ records: [['v', 0, '2|2|0', 's0', 's1']] }]);
  });

  it('a store an older version counted: the first that many listed are taken as delivered, those after are new', async () => {
    const { env, service, state, videos, poll, published } = await rig(startSimEnv, '2026-11-10T12:00:00Z');
    service.stores.set('m', {
      enrolled: '2026-01',
      videos: [
        { id: 'm1', at: '2026-11-02T10:00:00Z' },
        { id: 'm2', at: '2026-11-03T10:00:00Z' },
      ],
    });
    state.apply(['s', 'm']);
    state.apply(['v', 0, '2|2|0']);
    env.clock.advance(HOUR);
    service.stores.get('m')?.videos.push({ id: 'm3', at: '2026-11-10T12:30:00Z' });
    const step = await poll(published());
    expect(step.calls).toEqual([billing('2026-11'), content('m')]);
    expect(step.events).toEqual(['m m3']);
    expect(step.found.filter((f) => f.event).map((f) => f.records)).toEqual([[['v', 0, '3|3|0', 'm1', 'm2', 'm3']]]);
    expect([...(videos.delivered(0) ?? [])]).toEqual(['m1', 'm2', 'm3']);
  });
  it('a total billing cannot explain: not chased again until it moves, and billing scanned at most once per scanSpacing', async () => {
    const { env, service, poll, reconcile, published } = await rig(startSimEnv, '2026-11-10T12:00:00Z', 60_000);
    service.stores.set('a', { enrolled: '2026-01', videos: [{ id: 'a1', at: '2026-11-03T10:00:00Z' }] });
    await reconcile({ firstSync: true, storesWithCompletedVisits: new Set(['a']) });
    const total = published();
    const both = [billing('2026-11'), billing('2026-10')];
    // One more than the service lists (a video of a month no scan reads): both months read, nothing found.
    expect((await poll(total + 1)).calls).toEqual(both);
    // Another total inside the spacing: not read.
    env.clock.advance(59_999);
    expect((await poll(total + 2)).calls).toEqual([]);
    env.clock.advance(1);
    // The same total once the spacing has passed: not chased again; a new one is.
    expect((await poll(total + 1)).calls).toEqual([]);
    expect((await poll(total + 2)).calls).toEqual(both);
    // Explained again: nothing read, however long after.
    env.clock.advance(120_000);
    expect((await poll(total)).calls).toEqual([]);
  });
});
