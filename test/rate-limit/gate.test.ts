/**
 * The gate alone, on an injected clock: window inference, refills, late responses, the serial
 * probe, a shared budget's split, and the single timer.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Gate, GateClosed, WaitTooLong, type Sharing } from '../../src/core/rate-limit/gate.js';
import type { ServerLimits } from '../../src/core/rate-limit/headers.js';
import { fakeClock } from '../helpers/fake-clock.js';

const manualClock = () => fakeClock({ start: 0 });

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const budget = (remaining: number, resetAt: number, limit = 10): ServerLimits => ({
  rateLimit: { limit, remaining, resetAt: new Date(resetAt) },
});

/** A task whose answer we give later. */
function pending() {
  let answer!: (limits?: ServerLimits) => void;
  const promise = new Promise<{ limits?: ServerLimits }>(
    (resolve) => (answer = (limits) => resolve(limits ? { limits } : {})),
  );
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
    await gate.run({}, undefined, async () => ({ limits: budget(2, 1000, 3) }));
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
    await gate.run({}, undefined, async () => ({ limits: budget(8, 1000) }));
    const late = pending();
    const lateCall = gate.run({}, undefined, () => late.promise);
    for (let i = 0; i < 7; i++) await gate.run({}, undefined, async () => ({ limits: budget(7 - i, 1000) }));
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
    await gate.run({}, undefined, async () => ({ limits: budget(9, 1000) }));
    await gate.run({}, undefined, async () => ({ limits: budget(2, 1000) }));
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
    await gate.run({}, undefined, async () => ({ limits: budget(40, 1000, 40) }));
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
    await gate.run({}, undefined, async () => ({ limits: budget(40, 1000, 40) })); // 20 ours
    sharers = 4;
    await gate.run({}, undefined, async () => ({ limits: budget(39, 1000, 40) })); // 19 left, now 9
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
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 1500 } }));
    expect(announced).toEqual([1500]);
    clock.advance(1500);
    gate.pauseFromElsewhere(2500);
    const reasons: string[] = [];
    await gate.run(
      {},
      undefined,
      async () => ({}),
      (reason, ms) => void reasons.push(`${reason} ${ms}`),
    );
    expect(reasons).toEqual(['shared_pause 2500']);
  });

  it('refuses a wait over maxWaitMs with the wait and its reason, and a closed gate with GateClosed', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 1000, pacing: true });
    const call = {};
    await gate.run(call, undefined, async () => ({ limits: { retryAfterMs: 5000 } }));
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
    gate.share({
      sharers: () => 1,
      announcePause: () => undefined,
      close: async () => undefined,
      ready: new Promise((r) => (ready = r)),
    });
    let sent = false;
    const call = gate.run({}, undefined, async () => ((sent = true), {}));
    await flush();
    expect(sent).toBe(false);
    ready();
    await call;
    expect(sent).toBe(true);
  });
});

/** A clock whose timers fire only when the test says (`fire()`), to see what goes before a wait ends. */
function heldClock() {
  const timers: { ms: number; at: number; signal: AbortSignal | undefined; fired: boolean; fire: () => void }[] = [];
  const clock = {
    t: 0,
    timers,
    now: () => clock.t,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = {
          ms,
          at: clock.t + ms,
          signal,
          fired: false,
          fire: () => {
            timer.fired = true;
            clock.t = Math.max(clock.t, timer.at);
            resolve();
          },
        };
        timers.push(timer);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    /** The timers still armed (neither fired nor stopped). */
    armed: () => timers.filter((t) => !t.fired && !t.signal?.aborted),
  };
  return clock;
}

/**
 * Calls whose answers the test gives one by one; `started` lists their names in the order they
 * were sent. An answer given before its call is sent is its answer once it is.
 */
function held(gate: Gate) {
  const started: string[] = [];
  const answers = new Map<string, (limits?: ServerLimits) => void>();
  const early = new Map<string, ServerLimits | undefined>();
  const send = (
    name: string,
    options: { call?: object; signal?: AbortSignal; waited?: (reason: string, ms: number) => void } = {},
  ) =>
    gate.run(
      options.call ?? {},
      options.signal,
      () => {
        started.push(name);
        return new Promise<{ limits?: ServerLimits }>((resolve) => {
          const give = (limits?: ServerLimits) => resolve(limits ? { limits } : {});
          if (early.has(name)) give(early.get(name));
          else answers.set(name, give);
        });
      },
      options.waited,
    );
  const answer = (name: string, limits?: ServerLimits) => {
    const give = answers.get(name);
    if (give) give(limits);
    else early.set(name, limits);
  };
  /** Sends `n` calls named prefix1..n and lets the gate start what it will. */
  const burst = async (prefix: string, n: number) => {
    const calls = names(prefix, n).map((name) => send(name));
    await flush();
    return calls;
  };
  /** Ends a test: answers every call sent (with `limits`) and fires the timers until all have settled. */
  const drain = async (clock: ReturnType<typeof heldClock>, calls: Promise<unknown>[], limits?: ServerLimits) => {
    let done = false;
    const all = Promise.all(calls).then(() => (done = true));
    while (!done) {
      for (const [name, give] of answers) {
        answers.delete(name);
        give(limits);
      }
      await flush();
      clock.armed()[0]?.fire();
      await flush();
    }
    await all;
  };
  return { started, send, answer, burst, drain };
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('Gate: the budget, response by response', () => {
  it.each([
    // Sent before the refill; its interval overlaps the new window's, but it counts the old one.
    {
      what: 'a late response sent before the refill says nothing of the new window, even once that window is known',
      newEnd: 2000,
      late: budget(0, 1000),
      sleeps: [1000, 1000],
    },
    // The new window is of 2 s, so it ends after 2000 at the earliest: the late one is about an older window.
    {
      what: 'a response about an older window than the one known is ignored: no early refill',
      newEnd: 3000,
      late: budget(9, 1000),
      sleeps: [1000, 2000],
    },
  ])('$what', async ({ newEnd, late: lateAnswer, sleeps }) => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const { started, send, answer } = held(gate);
    await gate.run({}, undefined, async () => ({ limits: budget(8, 1000) }));
    const late = send('late'); // sent at 0, answers after the refill
    for (let i = 0; i < 7; i++) await gate.run({}, undefined, async () => ({}));
    // Spent. At 1000 the refill (10 less the late one in flight); this call shows the new window.
    await gate.run({}, undefined, async () => ({ limits: budget(8, newEnd) }));
    expect(clock.sleeps).toEqual([1000]);
    answer('late', lateAnswer);
    await late;
    const calls = names('c', 9).map((name) => send(name));
    await flush();
    // 8 at once (the new window's count stands), the 9th at the new window's end.
    expect(started.length).toBe(1 + 9);
    expect(clock.sleeps).toEqual(sleeps);
    for (const name of names('c', 9)) answer(name);
    await Promise.all(calls);
  });

  /** A gate on a held clock whose first answer showed `first`; `h` sends and answers held calls. */
  async function gateAfter(first: ServerLimits, sharers?: () => number) {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    if (sharers) gate.share({ sharers, announcePause: () => undefined, close: async () => undefined });
    await gate.run({}, undefined, async () => ({ limits: first }));
    return { clock, gate, h: held(gate) };
  }

  it('a newer window before our refill: its Remaining less the other calls in flight, until its own end', async () => {
    const { clock, h } = await gateAfter(budget(5, 1000));
    const first = await h.burst('a', 3);
    clock.t = 1500;
    // The server's window turned before ours: 7 left of a window ending at 3500, a2 and a3 in flight.
    h.answer('a1', budget(7, 3500));
    await first[0];
    const calls = await h.burst('c', 6);
    expect(h.started.length).toBe(3 + 5);
    expect(clock.armed().map((t) => t.ms)).toEqual([2000]);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started.length).toBe(3 + 6);
    await h.drain(clock, [...first, ...calls]);
  });

  it('answers out of order in one window keep our exact count (not the pessimistic one)', async () => {
    const { clock, h } = await gateAfter(budget(9, 1000));
    const first = await h.burst('a', 5);
    // a3 answers first: the server counted a1..a3 so far (6 left); 4 are ours to send.
    h.answer('a3', budget(6, 1000));
    await first[2];
    const more = await h.burst('b', 5);
    expect(h.started.length).toBe(5 + 4);
    await h.drain(clock, [...first, ...more], budget(0, 1000));
  });

  it("after a refill, the new window's first answer matching our count keeps it", async () => {
    const { clock, h } = await gateAfter(budget(0, 1000));
    const first = await h.burst('a', 6);
    expect(h.started).toEqual([]);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started.length).toBe(6);
    // The last sent answers first: all 6 counted, 4 left, exactly our count.
    h.answer('a6', budget(4, 2000));
    await first[5];
    const more = await h.burst('b', 5);
    expect(h.started.length).toBe(6 + 4);
    await h.drain(clock, [...first, ...more], budget(0, 2000));
  });

  it('a limit raised mid-window adds our part of the difference (2 processes sharing)', async () => {
    const { clock, h } = await gateAfter(budget(20, 1000, 20), () => 2); // 10 ours
    const first = await h.burst('a', 5);
    h.answer('a1', budget(35, 1000, 40)); // 5 ours left, plus half of the 20 added
    await first[0];
    const more = await h.burst('b', 16);
    expect(h.started.length).toBe(5 + 15);
    await h.drain(clock, [...first, ...more]);
  });

  it.each([
    // 20 ours, then 19 left shrink to 19 * 2 / 3.
    {
      what: 'a third process joins (2 to 3): our part shrinks in proportion',
      before: 2,
      after: 3,
      limit: 40,
      expected: 12,
    },
    // 10 ours, then 9 left stay 9 (not 9 * 3 / 2).
    {
      what: 'a process leaves mid-window (3 to 2): our part does not grow before the next window',
      before: 3,
      after: 2,
      limit: 30,
      expected: 9,
    },
  ])('$what', async ({ before, after, limit, expected }) => {
    let sharers = before;
    const { clock, gate, h } = await gateAfter(budget(limit, 1000, limit), () => sharers);
    sharers = after;
    await gate.run({}, undefined, async () => ({ limits: budget(limit - 1, 1000, limit) }));
    const calls = await h.burst('c', expected + 1);
    expect(h.started.length).toBe(expected);
    await h.drain(clock, calls);
  });

  it('a process that left before our refill may have spent its part of the new window: the refill still splits by it, the next one not', async () => {
    let sharers = 4;
    const { clock, h } = await gateAfter(budget(0, 1000, 40), () => sharers);
    const first = await h.burst('a', 25);
    expect(h.started).toEqual([]);
    // Three processes spend their 10 at the server's turn of the window and leave before our refill.
    sharers = 1;
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started.length).toBe(10);
    // Answers say this window is spent; at its end the key is ours alone: the other 15 go at once.
    for (const name of h.started.slice()) h.answer(name, budget(0, 2000, 40));
    await flush();
    expect(h.started.length).toBe(10);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started.length).toBe(25);
    await h.drain(clock, first);
  });

  it('a response from a call the refill sent, about the new window, counts (another client spent most of it)', async () => {
    const { clock, h } = await gateAfter(budget(0, 1000));
    const first = await h.burst('a', 2);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started).toEqual(['a1', 'a2']); // sent by the refill, at 1000
    h.answer('a1', budget(8, 2000));
    await first[0];
    h.answer('a2', budget(2, 2000));
    await first[1];
    const more = await h.burst('c', 3);
    expect(h.started.length).toBe(2 + 2);
    await h.drain(clock, more);
  });

  it.each([
    // The first says (0, 1000], the second (reset rounded up) (500, 1500]: it ends by 1000.
    { first: 1000, second: 1500, end: 1000 },
    // The first says (1000, 2000], the second (500, 1500]: it ends by 1500.
    { first: 2000, second: 1500, end: 1500 },
  ])(
    'responses about one window narrow when it ends: the earliest end they allow ($first, $second: $end)',
    async ({ first, second, end }) => {
      const { clock, gate, h } = await gateAfter(budget(5, first));
      clock.t = 500;
      await gate.run({}, undefined, async () => ({ limits: budget(4, second) }));
      const calls = await h.burst('c', 5);
      expect(h.started.length).toBe(4);
      expect(clock.armed().map((t) => t.at)).toEqual([end]);
      await h.drain(clock, calls);
    },
  );

  it('a wait behind the first response, or behind a shared budget starting, is a rate_budget wait', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const { send, answer } = held(gate);
    const waits: string[] = [];
    const waited = (reason: string, ms: number) => void waits.push(`${reason} ${ms}`);
    const probe = send('probe');
    const behind = send('behind', { waited });
    await flush();
    clock.t = 40;
    answer('probe', budget(5, 1000));
    answer('behind');
    await Promise.all([probe, behind]);
    let ready!: () => void;
    const shared = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    shared.share({
      sharers: () => 1,
      announcePause: () => undefined,
      close: async () => undefined,
      ready: new Promise<void>((r) => (ready = r)),
    });
    const starting = shared.run({}, undefined, async () => ({}), waited);
    clock.t = 100;
    ready();
    await starting;
    expect(waits).toEqual(['rate_budget 40', 'rate_budget 60']);
  });

  it('after the refill is spent, nothing more goes until a response shows the new window', async () => {
    const { clock, h } = await gateAfter(budget(0, 1000, 3));
    const calls = await h.burst('c', 5);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started).toEqual(['c1', 'c2', 'c3']);
    h.answer('c1'); // no fields: says nothing of the new window
    await flush();
    expect(h.started).toEqual(['c1', 'c2', 'c3']);
    // The new window: 1 left with c3 still in flight, so none for c4 and c5 until it ends.
    h.answer('c2', budget(1, 2000, 3));
    await flush();
    expect(h.started).toEqual(['c1', 'c2', 'c3']);
    expect(clock.armed().map((t) => t.at)).toEqual([2000]);
    clock.armed()[0]?.fire();
    await flush();
    expect(h.started).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    await h.drain(clock, calls);
  });

  it("learns another process's budget before its own first answer: its part at once, no probe", async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    gate.share({ sharers: () => 2, announcePause: () => undefined, close: async () => undefined });
    gate.learn({ limit: 10, remaining: 10, resetAt: new Date(1000) });
    // Once it knows a budget, what others saw no longer replaces it.
    gate.learn({ limit: 10, remaining: 0, resetAt: new Date(5000) });
    const h = held(gate);
    const calls = await h.burst('c', 6);
    expect(h.started.length).toBe(5);
    expect(gate.state).toMatchObject({ limit: 10, remaining: 10 });
    expect(clock.armed().map((t) => t.at)).toEqual([1000]);
    await h.drain(clock, calls, budget(5, 1000));
  });

  it('without pacing (rateLimit: false) it neither probes nor waits for the budget; it still learns nothing from others', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: false });
    gate.learn({ limit: 10, remaining: 0, resetAt: new Date(5000) });
    const { started, send, answer } = held(gate);
    const calls = ['a', 'b'].map((name) => send(name));
    await flush();
    expect(started).toEqual(['a', 'b']);
    answer('a', budget(0, 5000));
    answer('b', budget(0, 5000));
    await Promise.all(calls);
    await gate.run({}, undefined, async () => ({}));
    expect(clock.timers).toEqual([]);
  });
});

describe('Gate: waiting calls', () => {
  it('keeps waiting calls in order: one arriving as a wait ends, before its timer fires, goes after them', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const { started, send, answer } = held(gate);
    await gate.run({}, undefined, async () => ({ limits: budget(0, 1000, 1) }));
    const a = send('a');
    await flush();
    clock.t = 1000; // the window has ended; its timer has not fired yet
    const b = send('b');
    await flush();
    expect(started).toEqual(['a']);
    answer('a', budget(0, 2000, 1));
    await flush();
    expect(clock.armed().map((t) => t.at)).toEqual([2000]);
    clock.armed()[0]?.fire();
    await flush();
    expect(started).toEqual(['a', 'b']);
    answer('b');
    await Promise.all([a, b]);
  });

  it('a waiting call aborted leaves the queue; the others go on and no place is lost', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const { started, send, answer } = held(gate);
    const first = send('first'); // the probe: the budget is not known yet
    const stop = new AbortController();
    const a = send('a', { signal: stop.signal });
    const b = send('b');
    await flush();
    stop.abort(new Error('caller gave up'));
    await expect(a).rejects.toThrow('caller gave up');
    answer('first');
    await first;
    await flush();
    expect(started).toEqual(['first', 'b']);
    answer('b');
    await b;
  });

  it('an already aborted signal: rejected with its reason, nothing run', async () => {
    const gate = new Gate({ clock: manualClock(), maxWaitMs: 60_000, pacing: true });
    const stop = new AbortController();
    stop.abort(new Error('too late'));
    let ran = false;
    await expect(gate.run({}, stop.signal, async () => ((ran = true), {}))).rejects.toThrow('too late');
    expect(ran).toBe(false);
  });

  it("removes its abort listener from the caller's signal once the call is sent", async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ limits: budget(0, 1000) }));
    const stop = new AbortController();
    await gate.run({}, stop.signal, async () => ({}));
    expect(clock.sleeps).toEqual([1000]);
    expect(EventEmitter.getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('a task that fails: the call rejects with its error, and the gate goes on', async () => {
    const gate = new Gate({ clock: manualClock(), maxWaitMs: 60_000, pacing: true });
    const broken = new Error('task failed');
    await expect(gate.run({}, undefined, () => Promise.reject(broken))).rejects.toBe(broken);
    await expect(gate.run({}, undefined, async () => ({ limits: undefined, done: true }))).resolves.toEqual({
      done: true,
    });
  });

  it('reports a wait only when there was one (not 0 ms behind a response that came at once)', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    const { send, answer } = held(gate);
    const waits: string[] = [];
    const first = send('first');
    const second = send('second', { waited: (reason, ms) => void waits.push(`${reason} ${ms}`) });
    answer('first', budget(5, 1000));
    await first;
    answer('second');
    await second;
    expect(waits).toEqual([]);
  });

  it('waits a Retry-After of exactly maxWaitMs; one millisecond more is refused', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 1000, pacing: true });
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 1000 } }));
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 1001 } }));
    expect(clock.sleeps).toEqual([1000]);
    await expect(gate.run({}, undefined, async () => ({}))).rejects.toEqual(new WaitTooLong(1001, 'shared_pause'));
  });

  it('a shorter pause does not cut a longer one short', async () => {
    const clock = manualClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: false });
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 5000 } }));
    gate.pauseFromElsewhere(1000);
    await gate.run({}, undefined, async () => ({}));
    expect(clock.sleeps).toEqual([5000]);
  });

  it('announces no pause for an answer without Retry-After', async () => {
    const gate = new Gate({ clock: manualClock(), maxWaitMs: 60_000, pacing: true });
    const announced: unknown[] = [];
    gate.share({ sharers: () => 1, announcePause: (ms) => void announced.push(ms), close: async () => undefined });
    await gate.run({}, undefined, async () => ({ limits: budget(5, 1000) }));
    expect(announced).toEqual([]);
  });

  it('state: the newest window wins; a response about an older one does not replace it', async () => {
    const gate = new Gate({ clock: manualClock(), maxWaitMs: 60_000, pacing: false });
    const answer = (limits: ServerLimits) => gate.run({}, undefined, async () => ({ limits }));
    expect(gate.state).toBeUndefined();
    await answer(budget(5, 5000));
    await answer(budget(9, 1000));
    expect(gate.state).toMatchObject({ remaining: 5, resetAt: new Date(5000) });
    // Within a second of it: the same window (Reset is rounded), a fresher count.
    await answer(budget(3, 4000));
    expect(gate.state).toMatchObject({ remaining: 3, resetAt: new Date(4000) });
  });

  it('arms one timer for many waiting calls, and close() stops it and settles them', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ limits: budget(0, 1000) }));
    const calls = Array.from({ length: 5 }, () => gate.run({}, undefined, async () => ({})).catch((e: unknown) => e));
    await flush();
    expect(clock.timers).toHaveLength(1);
    await gate.close();
    expect(clock.timers[0]?.signal?.aborted).toBe(true);
    for (const settled of await Promise.all(calls)) expect(settled).toBeInstanceOf(GateClosed);
  });

  it('a timer stopped for a later one leaves the waiting calls waiting; they go when the later one fires', async () => {
    const clock = heldClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: false });
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 1000 } }));
    let settled = 0;
    const calls = Array.from({ length: 3 }, () => gate.run({}, undefined, async () => ({})).finally(() => settled++));
    await flush();
    gate.pauseFromElsewhere(3000);
    await flush();
    expect(clock.timers.map((t) => [t.ms, t.signal?.aborted])).toEqual([
      [1000, true],
      [3000, false],
    ]);
    expect(settled).toBe(0);
    clock.armed()[0]?.fire();
    await Promise.all(calls);
    expect(clock.t).toBe(3000);
  });

  it('a clock whose sleep fails fails the calls waiting on it with that failure; the next wait arms again', async () => {
    const broken = new TypeError('the clock broke');
    const clock = manualClock();
    let failures = 1;
    const gate = new Gate({
      clock: { ...clock, sleep: (ms, signal) => (failures-- > 0 ? Promise.reject(broken) : clock.sleep(ms, signal)) },
      maxWaitMs: 60_000,
      pacing: false,
    });
    await gate.run({}, undefined, async () => ({ limits: { retryAfterMs: 1000 } }));
    const waiting = [gate.run({}, undefined, async () => ({})), gate.run({}, undefined, async () => ({}))];
    for (const call of waiting) await expect(call).rejects.toBe(broken);
    // The same pause, the same moment: a timer is armed again and the call goes at its end.
    await gate.run({}, undefined, async () => ({}));
    expect(clock.sleeps).toEqual([1000]);
  });

  it('close() waits for the shared budget to let go, once however often it is called', async () => {
    const gate = new Gate({ clock: manualClock(), maxWaitMs: 60_000, pacing: true });
    let closes = 0;
    let release!: () => void;
    gate.share({
      sharers: () => 1,
      announcePause: () => undefined,
      close: () => ((closes += 1), new Promise<void>((resolve) => (release = resolve))),
    });
    let closed = false;
    const closing = gate.close().then(() => (closed = true));
    await flush();
    expect(closed).toBe(false);
    release();
    await closing;
    await gate.close();
    expect(closes).toBe(1);
  });
});
