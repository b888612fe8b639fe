/**
 * CallBudget on an injected clock: at most share × limit calls in any span of one window, the limit
 * and window as last reported (600 per minute before any report), never fewer than one call, and
 * every wait recorded.
 */
import { describe, expect, it } from 'vitest';
import type { Clock, RateLimitState } from '../../src/index.js';
import { CallBudget } from '../../src/events/call-budget.js';
import { fakeClock } from '../helpers/fake-clock.js';

/** The fake clock at a fixed start. */
const simClock = () => fakeClock({ start: 1_000_000 });

const limits = (limit: number, windowMs?: number): RateLimitState => ({
  limit,
  remaining: limit,
  resetAt: new Date(0),
  ...(windowMs === undefined ? {} : { windowMs }),
});
const signal = new AbortController().signal;

/** Take `n` calls, returning the clock's time at each. */
async function take(budget: CallBudget, clock: Clock, n: number): Promise<number[]> {
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    await budget.take(signal);
    at.push(clock.now());
  }
  return at;
}

describe('CallBudget', () => {
  it('wouldWait() tells, without taking, whether the next take() waits', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 0.5, () => limits(10, 1_000));
    await take(budget, clock, 4);
    expect(budget.wouldWait()).toBe(false);
    await take(budget, clock, 1);
    expect(budget.wouldWait()).toBe(true);
    expect(budget.wouldWait()).toBe(true);
    clock.advance(999);
    expect(budget.wouldWait()).toBe(true);
    clock.advance(1);
    expect(budget.wouldWait()).toBe(false);
    const start = clock.now();
    await take(budget, clock, 1);
    expect(clock.now()).toBe(start);
  });

  it('allows share × limit calls at once, then waits for the oldest to leave the window', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 0.5, () => limits(10, 1_000));
    const start = clock.now();
    const at = await take(budget, clock, 11);
    expect(at.slice(0, 5)).toEqual(Array(5).fill(start));
    expect(at.slice(5, 10)).toEqual(Array(5).fill(start + 1_000));
    expect(at[10]).toBe(start + 2_000);
    expect(clock.sleeps).toEqual([1_000, 1_000]);
    expect(budget.waitedMs).toBe(2_000);
  });

  it('slides: a call waits only until the oldest of the last share × limit is a window old', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 1, () => limits(3, 10_000));
    const start = clock.now();
    for (const gap of [0, 2_000, 3_000]) {
      await clock.sleep(gap);
      await budget.take(signal);
    }
    clock.sleeps.length = 0;
    await budget.take(signal);
    // The oldest was taken at start; the window is 10 s; it is now start + 5 s.
    expect(clock.sleeps).toEqual([5_000]);
    expect(clock.now()).toBe(start + 10_000);
    await budget.take(signal);
    // Next oldest: start + 2 s.
    expect(clock.sleeps).toEqual([5_000, 2_000]);
    expect(budget.waitedMs).toBe(7_000);
  });

  it('does not wait for a call exactly one window after the oldest', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 1, () => limits(1, 4_000));
    await budget.take(signal);
    await clock.sleep(4_000);
    clock.sleeps.length = 0;
    await budget.take(signal);
    expect(clock.sleeps).toEqual([]);
    expect(budget.waitedMs).toBe(0);
  });

  it('rounds share × limit down, but allows at least one call per window', async () => {
    const clock = simClock();
    const down = new CallBudget(clock, 0.5, () => limits(5, 1_000));
    await take(down, clock, 3);
    expect(clock.sleeps).toEqual([1_000]);

    const tiny = simClock();
    const one = new CallBudget(tiny, 0.1, () => limits(1, 1_000));
    await take(one, tiny, 3);
    expect(tiny.sleeps).toEqual([1_000, 1_000]);
  });

  it('before any report, assumes 600 calls per 60 s window', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 0.5, () => undefined);
    await take(budget, clock, 300);
    expect(clock.sleeps).toEqual([]);
    await budget.take(signal);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it('uses a 60 s window when the service states a limit but no window', async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 1, () => limits(2));
    await take(budget, clock, 3);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it('follows a limit that drops: only the most recent calls count against the new one', async () => {
    const clock = simClock();
    let limit = 4;
    const budget = new CallBudget(clock, 1, () => limits(limit, 10_000));
    const start = clock.now();
    for (let i = 0; i < 4; i++) {
      await budget.take(signal);
      await clock.sleep(1_000);
    }
    limit = 5;
    await budget.take(signal);
    await clock.sleep(1_000);
    // Calls at start, +1 … +4 s; now +5 s. With a limit of 2 the oldest that counts is at +3 s.
    limit = 2;
    clock.sleeps.length = 0;
    await budget.take(signal);
    expect(clock.sleeps).toEqual([8_000]);
    expect(clock.now()).toBe(start + 13_000);
  });

  it('follows a limit that rises: the calls already made still count', async () => {
    const clock = simClock();
    let limit = 2;
    const budget = new CallBudget(clock, 1, () => limits(limit, 10_000));
    await take(budget, clock, 2);
    limit = 3;
    clock.sleeps.length = 0;
    await budget.take(signal);
    expect(clock.sleeps).toEqual([]);
    await budget.take(signal);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("rejects with the signal's reason when stopped while waiting", async () => {
    const clock = simClock();
    const budget = new CallBudget(clock, 1, () => limits(1, 10_000));
    await budget.take(signal);
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    await expect(budget.take(stop.signal)).rejects.toThrow('stopped');
  });
});
