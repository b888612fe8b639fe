/**
 * The gate alone, on an injected clock: window inference, refills, late responses, the serial
 * probe, a shared budget's split, and the single timer.
 */
import { describe, expect, it } from 'vitest';
import { Gate, GateClosed, WaitTooLong, type Sharing, type Signals } from '../../src/core/rate-limit/gate.js';

function manualClock() {
  const sleeps: number[] = [];
  const clock = {
    t: 0,
    sleeps,
    now: () => clock.t,
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      clock.t += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const budget = (remaining: number, resetAt: number, limit = 10): Signals => ({ rateLimit: { limit, remaining, resetAt: new Date(resetAt) } });

/** A task whose answer we give later. */
function pending() {
  let answer!: (signals?: Signals) => void;
  const promise = new Promise<{ signals?: Signals }>((resolve) => (answer = (signals) => resolve(signals ? { signals } : {})));
  return { promise, answer };
}

describe('Gate', () => {
  it('sends one request at a time until a response shows the budget', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const first = pending();
    const started: number[] = [];
    const a = gate.run({}, undefined, () => (started.push(1), first.promise));
    const b = gate.run({}, undefined, async () => (started.push(2), {}));
    await flush();
    expect(started).toEqual([1]);
    first.answer(budget(9, 1000));
    await Promise.all([a, b]);
    expect(started).toEqual([1, 2]);
  });

  it('spends the window, waits exactly until its end, then refills to the limit less what is in flight', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ signals: budget(2, 1000, 3) }));
    let sent = 0;
    const calls = Array.from({ length: 5 }, () => gate.run({}, undefined, async () => (sent++, {})));
    await Promise.all(calls);
    expect(sent).toBe(5);
    // 2 left in the first window; at its end (1000 ms), 3 more.
    expect(clock.sleeps).toEqual([1000]);
  });

  it('ignores a late response from the window it already refilled for (it says nothing of the new one)', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ signals: budget(8, 1000) }));
    const late = pending();
    const lateCall = gate.run({}, undefined, () => late.promise);
    for (let i = 0; i < 7; i++) await gate.run({}, undefined, async () => ({ signals: budget(7 - i, 1000) }));
    // Spent: 5 more calls wait for the window's end, then go on the refill (10 - 1 in flight).
    await Promise.all(Array.from({ length: 5 }, () => gate.run({}, undefined, async () => ({}))));
    expect(clock.sleeps).toEqual([1000]);
    // The late call answers now: sent before the refill, Remaining 0, about the old window.
    late.answer(budget(0, clock.now()));
    await lateCall;
    // 4 places of the refill are left and must still be usable at once, all 4 in flight together.
    const held = pending();
    let started = 0;
    const four = Array.from({ length: 4 }, () => gate.run({}, undefined, () => (started++, held.promise)));
    await flush();
    expect(started).toBe(4);
    held.answer();
    await Promise.all(four);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('lowers its own count when the server counted more than our calls explain (another client)', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ signals: budget(9, 1000) }));
    await gate.run({}, undefined, async () => ({ signals: budget(2, 1000) }));
    let sent = 0;
    await Promise.all(Array.from({ length: 3 }, () => gate.run({}, undefined, async () => (sent++, {}))));
    expect(sent).toBe(3);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('takes its part of what the server reports left when the budget is shared by 4 processes', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const sharing: Sharing = { sharers: () => 4, announcePause: () => undefined, close: async () => undefined };
    gate.share(sharing);
    await gate.run({}, undefined, async () => ({ signals: budget(40, 1000, 40) }));
    let sent = 0;
    await Promise.all(Array.from({ length: 11 }, () => gate.run({}, undefined, async () => (sent++, {}))));
    // 10 (40 / 4) at once, the 11th after the window's end.
    expect(sent).toBe(11);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('shrinks its part in proportion when more processes join mid-window', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    let sharers = 2;
    gate.share({ sharers: () => sharers, announcePause: () => undefined, close: async () => undefined });
    await gate.run({}, undefined, async () => ({ signals: budget(40, 1000, 40) })); // 20 ours
    sharers = 4;
    await gate.run({}, undefined, async () => ({ signals: budget(39, 1000, 40) })); // 19 left, now 9
    const held = pending();
    let started = 0;
    const calls = Array.from({ length: 12 }, () => gate.run({}, undefined, () => (started++, held.promise)));
    await flush();
    // 9 at once; at the window's end one more (10 for each of 4, less the 9 still in flight).
    expect(started).toBe(10);
    expect(clock.sleeps).toEqual([1000]);
    held.answer();
    await Promise.all(calls);
  });

  it('tells the other processes about a pause, and pauses for theirs', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: false });
    const announced: number[] = [];
    gate.share({ sharers: () => 2, announcePause: (ms) => void announced.push(ms), close: async () => undefined });
    await gate.run({}, undefined, async () => ({ signals: { retryAfterMs: 1500 } }));
    expect(announced).toEqual([1500]);
    clock.t += 1500;
    gate.pauseFromElsewhere(2500);
    const reasons: string[] = [];
    await gate.run({}, undefined, async () => ({}), (reason, ms) => void reasons.push(`${reason} ${ms}`));
    expect(reasons).toEqual(['shared_pause 2500']);
  });

  it('refuses a wait over maxWaitMs with the wait and its reason, and a closed gate with GateClosed', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 1000, pacing: true });
    const call = {};
    await gate.run(call, undefined, async () => ({ signals: { retryAfterMs: 5000 } }));
    const own = await gate.run(call, undefined, async () => ({})).catch((e: unknown) => e);
    expect(own).toEqual(new WaitTooLong(5000, 'retry_after'));
    expect((own as WaitTooLong).reason).toBe('retry_after');
    const other = (await gate.run({}, undefined, async () => ({})).catch((e: unknown) => e)) as WaitTooLong;
    expect(other.reason).toBe('shared_pause');
    await gate.close();
    await expect(gate.run({}, undefined, async () => ({}))).rejects.toBeInstanceOf(GateClosed);
  });

  it('holds sends until a shared budget is ready', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 1000, pacing: true });
    let ready!: () => void;
    gate.share({ sharers: () => 1, announcePause: () => undefined, close: async () => undefined, ready: new Promise((r) => (ready = r)) });
    let sent = false;
    const call = gate.run({}, undefined, async () => ((sent = true), {}));
    await flush();
    expect(sent).toBe(false);
    ready();
    await call;
    expect(sent).toBe(true);
  });
});
