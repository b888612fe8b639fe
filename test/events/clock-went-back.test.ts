import { describe, expect, it } from 'vitest';
import { CLOCK_STEP_BACK_MS, clockWentBack } from '../../src/events/history.js';
import { WatchState } from '../../src/events/state.js';

/** The clock sign of a history gone back, at its edges (history-reset.test.ts drives it through a watcher). */
describe('clockWentBack', () => {
  const T = Date.UTC(2026, 10, 25, 12);
  const state = (seenAt: number | null, fullAt: number | null) => Object.assign(new WatchState(), { seenAt, fullAt });

  it('counts a step back of more than CLOCK_STEP_BACK_MS from the latest time seen, by either field; exactly that much is tolerated', () => {
    expect(clockWentBack(state(T, null), T - CLOCK_STEP_BACK_MS - 1)).toBe(true);
    expect(clockWentBack(state(null, T), T - CLOCK_STEP_BACK_MS - 1)).toBe(true);
    expect(clockWentBack(state(T, T - 3 * CLOCK_STEP_BACK_MS), T - CLOCK_STEP_BACK_MS - 1)).toBe(true);
    expect(clockWentBack(state(T, null), T - CLOCK_STEP_BACK_MS)).toBe(false);
    expect(clockWentBack(state(null, null), 0)).toBe(false);
  });

  it('keeps the later of the time seen and now, so a small step back does not lower the mark', () => {
    const moved = state(T, null);
    clockWentBack(moved, T + 5);
    expect(moved.seenAt).toBe(T + 5);
    clockWentBack(moved, T - 60_000);
    expect(moved.seenAt).toBe(T + 5);
    const fromFull = state(null, T);
    clockWentBack(fromFull, T - 60_000);
    expect(fromFull.seenAt).toBe(T);
  });
});
