/** The wait between passes: after a failure, after an empty pass and after a busy one. */
import { describe, expect, it } from 'vitest';
import { Pacing } from '../../src/events/pacing.js';

describe('Pacing', () => {
  it('doubles the wait after each empty pass, from minInterval up to maxInterval', () => {
    const pacing = new Pacing(10_000, 60_000);
    expect([1, 2, 3, 4, 5].map(() => pacing.after(0, false, Infinity))).toEqual([
      10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
  });

  it('goes back to minInterval after a busy pass, and doubles from there when the next is empty', () => {
    const pacing = new Pacing(10_000, 60_000);
    for (let i = 0; i < 4; i++) pacing.after(0, false, Infinity);
    expect(pacing.after(3, false, Infinity)).toBe(10_000);
    expect(pacing.after(1, false, Infinity)).toBe(10_000);
    expect(pacing.after(0, false, Infinity)).toBe(10_000);
    expect(pacing.after(0, false, Infinity)).toBe(20_000);
  });

  it('never waits past a reconciliation that is due, nor below zero', () => {
    const pacing = new Pacing(10_000, 60_000);
    expect(pacing.after(0, false, 4_000)).toBe(4_000);
    expect(pacing.after(0, false, -5_000)).toBe(0);
    expect(pacing.after(0, false, 20_000)).toBe(20_000);
  });

  it('after a failure waits its interval even when a reconciliation is due, and doubles it', () => {
    const pacing = new Pacing(10_000, 60_000);
    expect(pacing.after(0, true, 0)).toBe(10_000);
    expect(pacing.after(0, true, -1)).toBe(20_000);
    expect(pacing.after(0, true, 0)).toBe(40_000);
    expect(pacing.after(0, true, 0)).toBe(60_000);
  });
});
