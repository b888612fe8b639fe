/**
 * The watcher on the service's clock: a client whose clock is 40 days off the service's, and a run
 * across a month end where billing counts months in the store's time zone (a server written apart
 * from ours; the sandbox counts in UTC), each against the sandbox's ground-truth change log.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type Watcher } from '../../src/events/index.js';
import { coverage } from './coverage.js';
import { billingInStoreZone, useSimEnv, type SimEnv } from './support.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const OPTIONS = { startFrom: 'now', minInterval: 60_000, maxInterval: 600_000, maxLag: HOUR } as const;

async function runFor(env: SimEnv, watcher: Watcher, ms: number): Promise<PartnerEvent[]> {
  const until = env.clock.now() + ms;
  const events: PartnerEvent[] = [];
  for await (const event of watcher) {
    events.push(event);
    if (env.clock.now() >= until) break;
  }
  return events;
}

/** Every change since `start` delivered, each within maxLag (plus one idle wait) of the service's time. */
function expectEveryChange(env: SimEnv, start: number, events: PartnerEvent[]) {
  const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > start);
  const lastPoll = Date.parse(events.at(-1)?.created_at ?? '');
  const report = coverage(changes, events, lastPoll - OPTIONS.maxLag);
  expect(changes.filter((c) => c.type === 'video.published').length).toBeGreaterThan(5);
  expect(report.missing).toEqual([]);
  expect(report.duplicates).toBe(0);
  expect(Math.max(...report.lagsMs)).toBeLessThanOrEqual(OPTIONS.maxLag + OPTIONS.maxInterval);
  return report;
}

describe('the watcher on the service clock', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it.each([
    ['40 days ahead of', 40 * DAY],
    ['40 days behind', -40 * DAY],
  ])(
    'delivers every change when the client clock is %s the service, across a month end',
    { timeout: 120_000 },
    async (_, offset) => {
      env = await startSimEnv('msw', { now: '2026-11-25T00:00:00Z', visitsPerWeek: 6 }, offset);
      env.sandbox.populate(env.key, { locations: 15, reservationsPerLocation: 4 });
      const start = env.sandbox.clock.now().getTime();
      const events = await runFor(
        env,
        watchEvents(env.client(), { checkpoint: memoryCheckpoint(), ...OPTIONS }),
        10 * DAY,
      );
      expectEveryChange(env, start, events);
      // created_at is on the service's clock: the run's ten days, not the client's.
      for (const e of events) expect(Math.abs(Date.parse(e.created_at) - start - 5 * DAY)).toBeLessThanOrEqual(6 * DAY);
    },
  );

  describe.each([
    ['UTC (the sandbox)', false],
    ["the store's time zone (UTC+14)", true],
  ])('a month end where billing counts months in %s', (_, storeZone) => {
    it('delivers every video posted around it within maxLag', { timeout: 60_000 }, async () => {
      env = await startSimEnv('msw', { now: '2026-11-29T00:00:00Z', visitsPerWeek: 6 });
      const { locationIds } = env.sandbox.populate(env.key, { locations: 60, reservationsPerLocation: 8 });
      const setup = env.client();
      for (const id of locationIds) await setup.locations.update(id, { time_zone: 'Pacific/Kiritimati' });
      const start = env.sandbox.clock.now().getTime();
      const client = env.client(storeZone ? { fetch: billingInStoreZone(env) } : {});
      const events = await runFor(env, watchEvents(client, { checkpoint: memoryCheckpoint(), ...OPTIONS }), 3 * DAY);
      expectEveryChange(env, start, events);
      // A store with a video near the month's first moment is read again only when billing's count
      // for it moves: 83 content reads here, against 243 when every scan read every such store.
      expect(env.sandbox.requestCount({ path: /\/content$/ })).toBeLessThanOrEqual(100);
      // The case that matters happened: videos posted on December 1 at the stores, still November in UTC.
      const localDecember = Date.parse('2026-11-30T10:00:00Z');
      const utcDecember = Date.parse('2026-12-01T00:00:00Z');
      const between = events.filter(
        (e) =>
          e.type === 'video.published' &&
          Date.parse(e.data.posted_at) >= localDecember &&
          Date.parse(e.data.posted_at) < utcDecember,
      );
      expect(between.length).toBeGreaterThan(0);
    });
  });
});
