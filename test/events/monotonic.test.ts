/**
 * The watcher's own clocks when the machine's clock is set (NTP, a VM restored from a snapshot):
 * the service's time and the budget's window go by the clock's monotonic reading, so a wall clock
 * set back or forward moves neither; a clock without a monotonic reading measures by `now()`.
 */
import { describe, expect, it } from 'vitest';
import { PartnerClient, type ClientClock, type Clock } from '../../src/index.js';
import { CallBudget } from '../../src/events/call-budget.js';
import { ServiceClock } from '../../src/events/service-clock.js';

const DAY = 86_400_000;
const KEY = { apiKey: 'crp_test_monotonic', baseUrl: 'https://partner.crp.test' };
const T0 = Date.parse('2026-11-25T12:00:00Z');

/** A clock whose wall reading can be set apart from its monotonic one; sleeps move both. */
function settableClock(): ClientClock & { set(ms: number): void; sleeps: number[] } {
  let elapsed = 0;
  let wall = T0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => wall,
    monotonic: () => elapsed,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      elapsed += ms;
      wall += ms;
    },
    set: (ms) => {
      wall += ms;
    },
  };
}

describe('the watcher on a clock that is set', () => {
  it.each([
    ['back', -2 * DAY],
    ['forward', 2 * DAY],
  ])("keeps the service's time when the wall clock is set 2 days %s", async (_, jump) => {
    const clock = settableClock();
    const service = new ServiceClock(clock);
    service.observe(new Headers({ date: new Date(T0).toUTCString() }));
    await clock.sleep(60_000);
    clock.set(jump);
    expect(service.now()).toBe(T0 + 60_000);
  });

  it.each([
    ['back', -2 * DAY],
    ['forward', 2 * DAY],
  ])('keeps the budget window when the wall clock is set 2 days %s', async (_, jump) => {
    const clock = settableClock();
    const budget = new CallBudget(clock, 0.01, () => ({
      limit: 600,
      remaining: 600,
      resetAt: new Date(0),
      windowMs: 60_000,
    }));
    const signal = new AbortController().signal;
    for (let i = 0; i < 6; i++) await budget.take(signal);
    clock.set(jump);
    await budget.take(signal);
    // The share (6 a minute) is spent: the next call waits the minute out, not two days more or less.
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("fills in a clock's missing monotonic reading with now(), and keeps a clock that has one as it is", async () => {
    let wall = 5;
    const sleeps: number[] = [];
    const bare: Clock = { now: () => wall, sleep: async (ms) => void sleeps.push(ms), random: () => 0.25 };
    const filled = new PartnerClient({ ...KEY, clock: bare }).clock;
    expect(filled.monotonic()).toBe(5);
    wall = 7;
    expect([filled.now(), filled.monotonic(), filled.random?.()]).toEqual([7, 7, 0.25]);
    await filled.sleep(30);
    expect(sleeps).toEqual([30]);
    expect(new PartnerClient({ ...KEY, clock: { now: () => 0, sleep: async () => {} } }).clock.random).toBeUndefined();

    const own = {
      base: 100,
      now: () => 0,
      sleep: async () => {},
      monotonic(this: { base: number }) {
        return this.base + wall;
      },
    };
    const kept = new PartnerClient({ ...KEY, clock: own }).clock;
    expect(kept).toBe(own);
    expect(kept.monotonic()).toBe(107);
  });
});
