/**
 * What the watcher's reads cost, over a run with changes flowing: every list is read in pages of
 * 200 (the most the service gives), and the booking list is read from its start only by a full
 * reconciliation; a quick poll goes on from the saved end. A change that only spends calls (a page
 * size lost, a saved cursor dropped) delivers the same events and fails only here.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent } from '../../src/events/index.js';
import { useSimEnv, type SimEnv } from './support.js';

const HOUR = 3_600_000;

describe('the cost of the watcher reads', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('reads every list in pages of 200, and the booking list from its start once per reconciliation', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { now: '2026-11-10T00:00:00Z', visitsPerWeek: 20 });
    env.sandbox.populate(env.key, { locations: 50, reservationsPerLocation: 9 });
    const urls: URL[] = [];
    const client = env.client({
      fetch: (input, init) => {
        const request = new Request(input, init);
        urls.push(new URL(request.url));
        return fetch(request);
      },
    });
    const until = env.clock.now() + 12 * HOUR;
    const watcher = watchEvents(client, {
      checkpoint: memoryCheckpoint(),
      minInterval: 60_000,
      maxInterval: 600_000,
      maxLag: 2 * HOUR,
    });
    const events: PartnerEvent[] = [];
    for await (const event of watcher) {
      events.push(event);
      if (env.clock.now() >= until) break;
    }

    const lists = urls.filter((u) => !u.pathname.endsWith('/summary'));
    expect(lists.length).toBeGreaterThan(20);
    expect(lists.filter((u) => u.searchParams.get('limit') !== '200').map((u) => u.pathname + u.search)).toEqual([]);

    const bookingList = urls.filter(
      (u) => u.pathname.endsWith('/partner/v1/reservations') && !u.searchParams.has('status'),
    );
    const fromStart = bookingList.filter((u) => !u.searchParams.has('cursor'));
    // 450 bookings and more: each full pass reads 3 pages or more, and quick polls read on from the end.
    expect(watcher.stats.reconciliations).toBeGreaterThanOrEqual(6);
    // The loop may be left in the middle of a pass, which counts once it has completed.
    expect(fromStart.length - watcher.stats.reconciliations).toBeGreaterThanOrEqual(0);
    expect(fromStart.length - watcher.stats.reconciliations).toBeLessThanOrEqual(1);
    expect(bookingList.length - fromStart.length).toBeGreaterThan(2 * watcher.stats.reconciliations);
    expect(events.filter((e) => e.type !== 'reservation.created').length).toBeGreaterThan(10);

    // After the first sync, billing is read for this month and the last only: the run is ten
    // days from any month end.
    const secondPass = urls.indexOf(fromStart[1] as URL);
    const billed = urls.slice(secondPass).filter((u) => u.pathname.endsWith('/billing/monthly'));
    expect(billed.length).toBeGreaterThan(0);
    expect([...new Set(billed.map((u) => u.searchParams.get('month')))].sort()).toEqual(['2026-10', '2026-11']);
  });
});
