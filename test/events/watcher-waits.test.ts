/**
 * The watcher's loop, pass by pass, on the sandbox's simulated time: the wait after a busy pass,
 * after an empty one and after a failure (and never past a due reconciliation, unless the pass
 * failed), the pass and its reason in `stats.lastPass`, the stats each pass leaves, and stopping
 * in every state (before the first pass, while standing by, in a pass, while waiting).
 */
import { describe, expect, it } from 'vitest';
import type { ClientClock } from '../../src/index.js';
import {
  memoryCheckpoint,
  watchEvents,
  type PartnerEvent,
  type Watcher,
  type WatchStats,
} from '../../src/events/index.js';
import { useSimEnv, type SimEnv } from './support.js';

const SUMMARY = /\/summary$/;

/** What the loop had done when it began a wait: the pass before it and the wait's length. */
interface Step {
  /** When the wait began (the client's monotonic reading). */
  at: number;
  wait: number;
  pass: string;
  events: number;
  errors: number;
  intervalMs: number;
}

const passOf = (stats: WatchStats) => (stats.lastPass ? `${stats.lastPass.kind} (${stats.lastPass.reason})` : 'none');

/**
 * A client whose clock records each wait of the watcher with the stats at that moment (then calls
 * `onWait`, which may stop the watcher), and whose every request takes `latency` of simulated time.
 */
function traced(env: SimEnv, { latency = 0, onWait = (_: Step[]) => {}, onRequest = (_: string) => {} } = {}) {
  const steps: Step[] = [];
  let watcher: Watcher | undefined;
  let eventsBefore = 0;
  const clock: ClientClock = {
    now: () => env.clock.now(),
    monotonic: () => env.clock.monotonic(),
    sleep: (ms, signal) => {
      if (watcher) {
        const { stats } = watcher;
        steps.push({
          at: env.clock.monotonic(),
          wait: ms,
          pass: passOf(stats),
          events: stats.events - eventsBefore,
          errors: stats.errors,
          intervalMs: stats.intervalMs,
        });
        eventsBefore = stats.events;
        onWait(steps);
      }
      return env.clock.sleep(ms, signal);
    },
  };
  const client = env.client({
    clock,
    maxRetries: 0,
    fetch: (input, init) => {
      if (latency > 0) env.clock.advance(latency);
      const request = new Request(input, init);
      onRequest(new URL(request.url).pathname);
      return fetch(request);
    },
  });
  return {
    client,
    steps,
    watch(watching: Watcher) {
      watcher = watching;
      return watching;
    },
  };
}

async function all(watcher: Watcher): Promise<PartnerEvent[]> {
  const events: PartnerEvent[] = [];
  for await (const event of watcher) events.push(event);
  return events;
}

describe('the watcher loop, pass by pass', () => {
  const startSimEnv = useSimEnv();

  it('waits minInterval after a busy pass, doubles the wait after each empty one up to maxInterval, and never past a due reconciliation', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const { client, steps, watch } = traced(env, {
      latency: 1_000,
      onWait: (steps) => {
        if (steps.length === 3)
          env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2, idPrefix: 'late-' });
        if (steps.length === 12) watcher.stop();
      },
    });
    const watcher = watch(
      watchEvents(client, {
        checkpoint: memoryCheckpoint(),
        minInterval: 10_000,
        maxInterval: 60_000,
        maxLag: 300_000,
      }),
    );
    const started = env.clock.monotonic();
    const events = await all(watcher);
    expect(events.map((e) => e.type)).toEqual(['reservation.created', 'reservation.created', 'video.published']);
    // The first sync finds nothing: the wait doubles from minInterval. The 4th pass finds the two
    // new bookings: minInterval, and minInterval again after the next (empty) pass, then doubling up
    // to maxInterval, until the reconciliation due cuts a wait short. That one finds the late store's
    // video (from a month billing does not list the store for, which only a reconciliation reads):
    // a busy pass, so minInterval again, twice.
    expect(steps.map((s) => [s.pass, s.events, s.wait])).toEqual([
      ['reconciliation (first sync)', 0, 10_000],
      ['poll (not due)', 0, 20_000],
      ['poll (not due)', 0, 40_000],
      ['poll (not due)', 2, 10_000],
      ['poll (not due)', 0, 10_000],
      ['poll (not due)', 0, 20_000],
      ['poll (not due)', 0, 40_000],
      ['poll (not due)', 0, 60_000],
      ['poll (not due)', 0, 60_000],
      ['poll (not due)', 0, steps[9]?.wait],
      ['reconciliation (due)', 1, 10_000],
      ['poll (not due)', 0, 10_000],
    ]);
    // Every call takes a second: the first sync took as long as its calls, and the next
    // reconciliation begins that much before maxLag has passed since the first began, so that it
    // ends within maxLag (give or take the summary's second and the Date header's resolution).
    const takes = (steps[0]?.at ?? 0) - started;
    expect(takes).toBeGreaterThanOrEqual(3_000);
    expect(takes).toBeLessThan(30_000);
    const due = (steps[9]?.at ?? 0) + (steps[9]?.wait ?? 0);
    expect(steps[9]?.wait).toBeLessThan(60_000);
    expect(due - started).toBeGreaterThanOrEqual(300_000 - takes);
    expect(due - started).toBeLessThanOrEqual(300_000 - takes + 3_000);
    for (const step of steps) expect(step.intervalMs).toBe(step.wait);
    expect(watcher.stats).toMatchObject({ errors: 0, events: 3, polls: 12, reconciliations: 2 });
  });

  it('after a failed pass waits its interval, doubling, even when a reconciliation is due sooner', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const { client, steps, watch } = traced(env, {
      latency: 1_000,
      onWait: (steps) => {
        // The two passes after the first poll fail at their summary, and the one when the next
        // reconciliation is due in less than the interval.
        if (steps.length === 1 || steps.length === 6)
          env.sandbox.faults.next({ path: SUMMARY, status: 503, times: steps.length === 1 ? 2 : 1 });
        if (steps.length === 10) watcher.stop();
      },
    });
    const watcher = watch(
      watchEvents(client, {
        checkpoint: memoryCheckpoint(),
        minInterval: 10_000,
        maxInterval: 60_000,
        maxLag: 300_000,
      }),
    );
    const started = env.clock.monotonic();
    await all(watcher);
    expect(steps.map((s) => [s.pass, s.errors, s.wait])).toEqual([
      ['reconciliation (first sync)', 0, 10_000],
      // Failed: the interval, doubling as after an empty pass (the last pass stays the last that ran).
      ['reconciliation (first sync)', 1, 20_000],
      ['reconciliation (first sync)', 2, 40_000],
      ['poll (not due)', 2, 60_000],
      ['poll (not due)', 2, 60_000],
      ['poll (not due)', 2, 60_000],
      // Failed with the reconciliation due sooner than the interval: the interval all the same.
      ['poll (not due)', 3, 60_000],
      ['reconciliation (due)', 3, 60_000],
      ['poll (not due)', 3, 60_000],
      ['poll (not due)', 3, 60_000],
    ]);
    for (const step of steps) expect(step.intervalMs).toBe(step.wait);
    const takes = (steps[0]?.at ?? 0) - started;
    expect(started + 300_000 - takes - (steps[6]?.at ?? 0)).toBeLessThan(60_000);
    expect(watcher.stats).toMatchObject({ errors: 3, polls: 7, reconciliations: 2 });
    // The last reconciliation's end, on the service's time (the sandbox's, here).
    const reconciled = Date.parse(watcher.stats.lastReconciledAt ?? '');
    expect(reconciled).toBeGreaterThan(steps[6]?.at ?? 0);
    expect(reconciled).toBeLessThanOrEqual(steps[7]?.at ?? 0);
  });

  it('runs the next reconciliation at once, with no wait, when the last took longer than maxLag', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const passes: string[] = [];
    const { client, steps, watch } = traced(env, {
      latency: 100_000,
      onRequest: (path) => {
        if (SUMMARY.test(path)) passes.push(passOf(watcher.stats));
        if (watcher.stats.reconciliations >= 3) watcher.stop();
      },
    });
    const watcher = watch(
      watchEvents(client, {
        checkpoint: memoryCheckpoint(),
        minInterval: 10_000,
        maxInterval: 60_000,
        maxLag: 300_000,
      }),
    );
    await all(watcher);
    expect(steps).toEqual([]);
    expect(watcher.stats).toMatchObject({
      polls: 3,
      reconciliations: 3,
      intervalMs: 0,
      lastPass: { kind: 'reconciliation', reason: 'due' },
    });
    expect(passes.at(-1)).toBe('reconciliation (due)');
  });
});
