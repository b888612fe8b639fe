/**
 * The detector's choice between a poll and a full reconciliation, and its reason, on the sandbox:
 * the first sync, due (so one ends within maxLag), not due, a finder's mismatch (only once maxLag
 * / 10 has passed since the last), a refused list position (at once) and a history gone back.
 */
import { describe, expect, it } from 'vitest';
import type { PartnerClient, Summary } from '../../src/index.js';
import { detectorFor, useSimEnv } from './support.js';

const MAX_LAG = 900_000;
const TAKES = 90_000;

async function drain(pass: AsyncGenerator<unknown>): Promise<void> {
  for await (const _ of pass);
}

describe('Detector.choose', () => {
  const startSimEnv = useSimEnv();

  async function detectorOn(populated = true) {
    const env = await startSimEnv('msw', { now: '2026-11-10T00:00:00Z', visitsPerWeek: 0 });
    if (populated) env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 4 });
    const client: PartnerClient = env.client();
    let calls = 0;
    const { state, service, detector } = detectorFor(client, {
      videoScanSpacing: 60_000,
      maxLag: MAX_LAG,
      onCall: () => calls++,
    });
    return { env, state, service, detector, calls: () => calls };
  }

  it('first sync, then not due until maxLag less the time a reconciliation takes, then due', async () => {
    const { state, service, detector } = await detectorOn();
    const summary = await detector.summary();
    expect(detector.choose(TAKES)).toEqual({ kind: 'reconciliation', reason: 'first sync' });
    expect(detector.untilDue(TAKES)).toBe(0);
    await drain(detector.reconcile());
    const startedAt = state.fullAt as number;
    expect(startedAt).toBe(service.now());
    expect(detector.untilDue(TAKES)).toBe(MAX_LAG - TAKES);
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
    await drain(detector.poll(summary));
    state.fullAt = service.now() - (MAX_LAG - TAKES) + 1;
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
    expect(detector.untilDue(TAKES)).toBe(1);
    state.fullAt = service.now() - (MAX_LAG - TAKES);
    expect(detector.choose(TAKES)).toEqual({ kind: 'reconciliation', reason: 'due' });
    expect(detector.untilDue(TAKES)).toBe(0);
  });

  it('a mismatch after a poll asks for a reconciliation once maxLag / 10 has passed since the last, not before', async () => {
    const { state, service, detector, calls } = await detectorOn();
    const summary = await detector.summary();
    await drain(detector.reconcile());
    // Counts the state cannot explain (say, a cancellation only a full read finds).
    const off: Summary = {
      ...summary,
      reservations: { ...summary.reservations, unacknowledged: summary.reservations.unacknowledged + 1 },
    };
    const before = calls();
    await drain(detector.poll(off));
    // The summary moved: the list read on from its end (one call), nothing else could place it.
    expect(calls() - before).toBe(1);
    state.fullAt = service.now() - MAX_LAG / 10 + 1;
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
    state.fullAt = service.now() - MAX_LAG / 10;
    expect(detector.choose(TAKES)).toEqual({ kind: 'reconciliation', reason: 'mismatch' });
    // A poll whose counts match settles it.
    await drain(detector.poll(summary));
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
  });

  it('a refused list position asks for a reconciliation at once, and the poll reads nothing more', async () => {
    const { state, detector, calls } = await detectorOn();
    const summary = await detector.summary();
    await drain(detector.reconcile());
    state.apply(['t', 'not-a-cursor', 0]);
    const moved: Summary = {
      ...summary,
      videos_published: summary.videos_published + 1,
      reservations: { ...summary.reservations, pending: summary.reservations.pending + 1 },
    };
    const before = calls();
    await drain(detector.poll(moved));
    expect(calls() - before).toBe(1);
    expect(detector.choose(TAKES)).toEqual({ kind: 'reconciliation', reason: 'position refused' });
    await drain(detector.reconcile());
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
  });

  it('a history gone back comes before everything, and the reconciliation forgets the state first', async () => {
    const { state, detector } = await detectorOn();
    await detector.summary();
    await drain(detector.reconcile());
    detector.rewound = 'a test';
    expect(detector.choose(TAKES)).toEqual({ kind: 'reconciliation', reason: 'history reset' });
    const resets = state.resets;
    await drain(detector.reconcile());
    expect(state.resets).toBe(resets + 1);
    expect(detector.rewound).toBeUndefined();
    expect(detector.choose(TAKES)).toEqual({ kind: 'poll', reason: 'not due' });
  });
});
