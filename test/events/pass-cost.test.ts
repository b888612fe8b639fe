/**
 * What each kind of change costs and how long it stays undelivered, pinned from the sandbox's
 * request log on simulated time (10 stores, over a month end). Each pass opens with `/summary`,
 * so the log splits into passes; a pass that delivered one kind of change alone shows what
 * finding that kind costs. A change that only spends calls (a list read again, a cursor or page
 * size dropped, a reconciliation where a poll does) delivers the same events and fails here; so
 * does one that only delays them.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type WatchOptions } from '../../src/events/index.js';
import { useSimEnv } from './support.js';

const MINUTE = 60_000;

interface PassLog {
  calls: string[];
  events: string[];
  pass: string;
  /** Passes the watcher had ended (polls + errors) when this one began. */
  after: number;
}

/** A change's kind as the cost table names it. */
function kindOf(event: PartnerEvent): string {
  if (event.type !== 'reservation.updated') return event.type === 'reservation.created' ? 'new booking' : 'new video';
  if ('acknowledged_kind' in event.previous) return 'acknowledgement';
  return `${event.previous.status}>${event.data.status}`;
}

async function run(startSimEnv: ReturnType<typeof useSimEnv>, options: Partial<WatchOptions>, days: number) {
  const env = await startSimEnv('msw', { now: '2026-11-29T12:00:00Z', visitsPerWeek: 10 });
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation: 3 });
  const passes: PassLog[] = [];
  // eslint-free forward reference: the fetch below reads the watcher's stats once it runs.
  let watcher: ReturnType<typeof watchEvents>;
  const client = env.client({
    fetch: (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname.replace('/partner/v1', '').replace(/\/locations\/[^/]+\//, '/locations/{store}/');
      // A summary read again before the pass ended (the service's time not confirmed yet) is that pass's.
      const ended = watcher.stats.polls + watcher.stats.errors;
      if (path === '/summary' && passes.at(-1)?.after !== ended)
        passes.push({ calls: [], events: [], pass: 'poll (not due)', after: ended });
      const query = [
        url.searchParams.get('limit') === '200' || path === '/summary' ? '' : ' NO PAGE SIZE',
        url.searchParams.has('cursor') ? ' +cursor' : '',
        url.searchParams.has('status') ? ` status=${url.searchParams.get('status')}` : '',
      ];
      const current = passes.at(-1) as PassLog;
      if (path !== '/summary' && watcher.stats.lastPass)
        current.pass = `${watcher.stats.lastPass.kind} (${watcher.stats.lastPass.reason})`;
      current.calls.push(
        path + (path.endsWith('/billing/monthly') ? ` ${url.searchParams.get('month')}` : '') + query.join(''),
      );
      return fetch(request);
    },
  });
  const until = env.clock.now() + days * 24 * 60 * MINUTE;
  const start = env.clock.now();

  watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), ...options });
  const lags = new Map<string, number[]>();
  let acknowledged = 0;
  for await (const event of watcher) {
    const pass = passes.at(-1) as PassLog;
    pass.events.push(kindOf(event));
    if (event.type === 'reservation.created' && env.clock.now() > start + 60 * MINUTE && acknowledged < 3) {
      acknowledged++;
      await client.reservations.acknowledge(event.data.reservation_id, 'acknowledged_self');
    }
    const change = [...env.sandbox.inspect.changes(env.key)]
      .reverse()
      .find(
        (c) =>
          c.type === event.type &&
          (event.type === 'video.published'
            ? c.video_id === event.data.video_id
            : c.reservation_id === event.data.reservation_id),
      );
    if (change && Date.parse(change.at) > start + 30 * MINUTE) {
      const kind = kindOf(event);
      lags.set(kind, [...(lags.get(kind) ?? []), Date.parse(event.created_at) - Date.parse(change.at)]);
    }
    if (env.clock.now() >= until) break;
  }
  // An acknowledgement is the app's own call, made in the loop: logged apart from the watcher's.
  for (const pass of passes) pass.calls = pass.calls.filter((call) => !call.includes('/acknowledge'));
  return { passes: passes.slice(0, -1), lags, stats: watcher.stats };
}

/** Every pass that found one change of `kind` alone called `calls`; `required`: there was one. */
function expectCost(passes: PassLog[], kind: string, calls: string | RegExp, required = true): void {
  const costs = costOf(passes, kind);
  expect(
    costs.filter((c) => (typeof calls === 'string' ? c !== calls : !calls.test(c))),
    kind,
  ).toEqual([]);
  if (required) expect(costs.length, kind).toBe(1);
}

/** The calls of each pass that found exactly `kind` (one change of it, nothing else), as a set of distinct lists. */
const costOf = (passes: PassLog[], kind: string, pass = 'poll (not due)') => [
  ...new Set(
    passes
      .filter((p) => p.pass === pass && p.events.length === 1 && p.events[0] === kind)
      .map((p) => p.calls.join(' | ')),
  ),
];

describe('the cost and lag of each kind of change', () => {
  const startSimEnv = useSimEnv();

  it('with the defaults: a poll reads only what the summary points at; a reconciliation every maxLag', {
    timeout: 120_000,
  }, async () => {
    const { passes, lags, stats } = await run(startSimEnv, {}, 2);
    // Nothing new: the summary alone.
    const idle = passes.filter((p) => p.events.length === 0 && p.calls.length === 1);
    expect(idle.length).toBeGreaterThan(passes.length * 0.8);
    expect(new Set(idle.map((p) => p.calls.join()))).toEqual(new Set(['/summary']));
    // A new booking: the list read on from its saved end, one page.
    expectCost(passes, 'new booking', '/summary | /reservations');
    // A booking that left pending: the pending list, then its store's bookings.
    expectCost(
      passes,
      'pending>confirmed',
      '/summary | /reservations | /reservations status=pending | /locations/{store}/reservations',
    );
    // A visit that became due: its store's bookings.
    expectCost(passes, 'confirmed>completed', '/summary | /reservations | /locations/{store}/reservations', false);
    // A new video: billing for this month, then the content of the one store it points at.
    expectCost(
      passes,
      'new video',
      /^\/summary \| \/billing\/monthly 2026-1[12] \| \/locations\/\{store\}\/content$/,
      false,
    );
    // An acknowledgement moves only the unacknowledged count: the poll cannot place it, so the
    // reconciliation it asks for finds it (after maxLag / 10).
    const acks = passes.filter((p) => p.events.includes('acknowledgement'));
    expect(acks.length).toBe(3);
    for (const p of acks) expect(p.pass).toBe('reconciliation (mismatch)');
    // A reconciliation: the whole list and billing for this month and the last; within a time
    // zone's reach of a month's first moment, the next one too (here, from Nov 30 10:00 UTC).
    const reconciliations = passes.slice(1).filter((p) => p.pass.startsWith('reconciliation'));
    expect(new Set(reconciliations.map((p) => p.calls.join(' | ')))).toEqual(
      new Set([
        '/summary | /reservations | /billing/monthly 2026-11 | /billing/monthly 2026-10',
        '/summary | /reservations | /billing/monthly 2026-11 | /billing/monthly 2026-10 | /billing/monthly 2026-12',
        '/summary | /reservations | /billing/monthly 2026-12 | /billing/monthly 2026-11',
      ]),
    );
    // Every pass that is no reconciliation reads neither the whole list nor billing.
    const polls = passes.filter((p) => p.pass === 'poll (not due)');
    expect(polls.filter((p) => p.calls.some((c) => c.startsWith('/billing') || c === '/reservations +cursor'))).toEqual(
      [],
    );
    expect(passes.flatMap((p) => p.calls).filter((c) => c.includes('NO PAGE SIZE'))).toEqual([]);
    // One reconciliation per maxLag (15 min), started early enough to end within it.
    expect(stats.reconciliations).toBeGreaterThanOrEqual(2 * 24 * 4);
    expect(stats.reconciliations).toBeLessThanOrEqual(2 * 24 * 4 + 3 + 3);
    // Each pass says what it was and why.
    expect(passes[0]?.pass).toBe('reconciliation (first sync)');
    // The first pass reads the summary twice: one answer alone does not set the service's time.
    expect(passes[0]?.calls.slice(0, 3)).toEqual(['/summary', '/summary', '/reservations']);
    expect(new Set(passes.map((p) => p.pass))).toEqual(
      new Set(['reconciliation (first sync)', 'reconciliation (due)', 'reconciliation (mismatch)', 'poll (not due)']),
    );
    // Lag: a booking change within an idle poll interval (60 s), a video within that and its
    // scan spacing, an acknowledgement within maxLag / 10 and a poll interval after.
    const worst = Object.fromEntries([...lags].map(([kind, values]) => [kind, Math.max(...values)]));
    expect(worst['new booking']).toBeLessThanOrEqual(MINUTE);
    expect(worst['pending>confirmed']).toBeLessThanOrEqual(MINUTE);
    if (worst['new video'] !== undefined) expect(worst['new video']).toBeLessThanOrEqual(2 * MINUTE);
    expect(worst.acknowledgement).toBeLessThanOrEqual(90_000 + MINUTE);
    console.log('lag (ms, worst) with the defaults', worst, 'calls', stats.calls, 'passes', passes.length);
  });

  it('with { maxLag: 120_000 } alone: polls every 10 s to 60 s, a reconciliation every 2 minutes, every change within it', {
    timeout: 120_000,
  }, async () => {
    const { passes, lags, stats } = await run(startSimEnv, { maxLag: 120_000 }, 0.5);
    expectCost(passes, 'new booking', '/summary | /reservations');
    expectCost(
      passes,
      'pending>confirmed',
      '/summary | /reservations | /reservations status=pending | /locations/{store}/reservations',
      false,
    );
    // 12 simulated hours, at least one reconciliation per 2 minutes and at most one a minute (each starts early enough to end within maxLag).
    expect(stats.reconciliations).toBeGreaterThanOrEqual(12 * 30);
    expect(stats.reconciliations).toBeLessThanOrEqual(12 * 60);
    const worst = Object.fromEntries([...lags].map(([kind, values]) => [kind, Math.max(...values)]));
    expect(Object.keys(worst)).toContain('new booking');
    for (const [kind, lag] of Object.entries(worst)) expect(lag, kind).toBeLessThanOrEqual(120_000);
    expect(worst['new booking']).toBeLessThanOrEqual(MINUTE);
    console.log('lag (ms, worst) with maxLag 2 min', worst, 'calls', stats.calls, 'passes', passes.length);
  });
});
