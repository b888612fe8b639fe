/**
 * The real clock's sleep (Node's timers faked): it resolves once its time is up, rejects with the
 * signal's reason the moment the signal aborts (also when it already had), and leaves neither a
 * timer nor a listener behind.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realClock } from '../../src/core/clock.js';

describe('realClock.sleep', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const settled = (promise: Promise<void>) => {
    const state = { done: false, error: undefined as unknown };
    promise.then(
      () => void (state.done = true),
      (error: unknown) => void Object.assign(state, { done: true, error }),
    );
    return state;
  };

  it('resolves when its time is up, not before, and removes its abort listener', async () => {
    const stop = new AbortController();
    const remove = vi.spyOn(stop.signal, 'removeEventListener');
    const sleep = settled(realClock.sleep(1_000, stop.signal));
    await vi.advanceTimersByTimeAsync(999);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sleep).toEqual({ done: true, error: undefined });
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it("rejects with the signal's reason as it aborts, and clears its timer", async () => {
    const stop = new AbortController();
    const sleep = settled(realClock.sleep(60_000, stop.signal));
    await vi.advanceTimersByTimeAsync(10);
    const reason = new Error('stopped');
    stop.abort(reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(sleep).toEqual({ done: true, error: reason });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once with the reason of a signal already aborted, starting no timer', async () => {
    const reason = new Error('already');
    const sleep = settled(realClock.sleep(60_000, AbortSignal.abort(reason)));
    await vi.advanceTimersByTimeAsync(0);
    expect(sleep).toEqual({ done: true, error: reason });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sleeps without a signal', async () => {
    const sleep = settled(realClock.sleep(5));
    await vi.advanceTimersByTimeAsync(4);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sleep).toEqual({ done: true, error: undefined });
  });

  it('reads the wall clock and a monotonic one', () => {
    vi.setSystemTime(Date.parse('2026-11-26T00:00:00Z'));
    expect(realClock.now()).toBe(Date.parse('2026-11-26T00:00:00Z'));
    const before = realClock.monotonic();
    vi.advanceTimersByTime(250);
    expect(realClock.monotonic() - before).toBe(250);
    expect(realClock.random).toBe(Math.random);
  });
});
