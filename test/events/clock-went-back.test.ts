import { describe, expect, it } from 'vitest';
import { CLOCK_STEP_BACK_MS, clockWentBack } from '../../src/events/history.js';
import { WatchState } from '../../src/events/state.js';

/** The clock sign of a history gone back, at its edges (history-reset.test.ts drives it through a watcher). */
describe('clockWentBack', () => {
  const T = Date.UTC(2026, 10, 25, 12);
  /** A service time several answers agreed on. */
  const at = (now: number) => ({ confirmed: true, now: () => now });
  const state = (seenAt: number | null, fullAt: number | null) => Object.assign(new WatchState(), { seenAt, fullAt });

  it('counts a step back of more than CLOCK_STEP_BACK_MS from the latest time seen, by either field; exactly that much is tolerated', () => {
    expect(clockWentBack(state(T, null), at(T - CLOCK_STEP_BACK_MS - 1))).toBe(true);
    expect(clockWentBack(state(null, T), at(T - CLOCK_STEP_BACK_MS - 1))).toBe(true);
    expect(clockWentBack(state(T, T - 3 * CLOCK_STEP_BACK_MS), at(T - CLOCK_STEP_BACK_MS - 1))).toBe(true);
    expect(clockWentBack(state(T, null), at(T - CLOCK_STEP_BACK_MS))).toBe(false);
    expect(clockWentBack(state(null, null), at(0))).toBe(false);
  });

  it('keeps the later of the time seen and now, so a small step back does not lower the mark', () => {
    const moved = state(T, null);
    clockWentBack(moved, at(T + 5));
    expect(moved.seenAt).toBe(T + 5);
    clockWentBack(moved, at(T - 60_000));
    expect(moved.seenAt).toBe(T + 5);
    const fromFull = state(null, T);
    clockWentBack(fromFull, at(T - 60_000));
    expect(fromFull.seenAt).toBe(T);
  });

  it('corrects times stamped before the service confirmed its time instead of counting a step back from them', () => {
    const stamped = state(T, T);
    expect(clockWentBack(stamped, at(T - 3 * 3_600_000), true)).toBe(false);
    expect({ seenAt: stamped.seenAt, fullAt: stamped.fullAt }).toEqual({
      seenAt: T - 3 * 3_600_000,
      fullAt: T - 3 * 3_600_000,
    });
    // Once corrected, the confirmed time is the mark again.
    expect(clockWentBack(stamped, at(T - 4 * 3_600_000))).toBe(true);
    const early = state(T, T);
    clockWentBack(early, at(T + 60_000), true);
    expect({ seenAt: early.seenAt, fullAt: early.fullAt }).toEqual({ seenAt: T + 60_000, fullAt: T });
    expect(clockWentBack(state(T, T), { confirmed: false, now: () => T - 100 * CLOCK_STEP_BACK_MS }, true)).toBe(false);
  });

  it('takes no time the service has not confirmed: neither a step back nor a new mark', () => {
    const unconfirmed = state(T, null);
    expect(clockWentBack(unconfirmed, { confirmed: false, now: () => T - 100 * CLOCK_STEP_BACK_MS })).toBe(false);
    expect(clockWentBack(unconfirmed, { confirmed: false, now: () => T + 100 * CLOCK_STEP_BACK_MS })).toBe(false);
    expect(unconfirmed.seenAt).toBe(T);
  });
});
