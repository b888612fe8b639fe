/**
 * The tests' one fake clock. Time stands still except that each sleep, recorded in `sleeps`, moves
 * it on by its length and resolves at once (so a wait until a moment reaches exactly that moment);
 * `advance(ms)` moves it without a sleep. `shiftWall(ms)` sets the wall reading (`now()`) that far,
 * as NTP or a restored VM does, while the monotonic reading runs on untouched. After `close()` every
 * sleep rejects, so a loop a test left running ends with its test.
 */
import type { ClientClock } from '../../src/index.js';
import type { Sandbox } from './sdk-env.js';

export interface FakeClockOptions {
  /** The wall reading at the start, in epoch milliseconds. @default Date.now() */
  start?: number;
  /**
   * The sandbox whose simulated time this clock is: `now()` reads the sandbox's clock (plus
   * `offsetMs`), each sleep moves it on, and the sleep lets other tasks run (an abort, the app's own
   * calls) before it resolves, as a real wait would.
   */
  sandbox?: Sandbox;
  /** The wall reading this far from the time kept (a machine whose clock is wrong). @default 0 */
  offsetMs?: number;
  /** What `random()` returns, times 0.999 999 so that 1 stays below 1; without it the clock has no `random()`. */
  random?: number;
}

export interface FakeClock extends ClientClock {
  /** Every sleep's length, in order. */
  readonly sleeps: number[];
  advance(ms: number): void;
  shiftWall(ms: number): void;
  /** Every later sleep rejects: the test that owned this clock is over. */
  close(): void;
}

/** What a sleep on a closed fake clock rejects with. */
export const sleepAfterClose = () =>
  new Error('A sleep on a fake clock whose test is over: something the test started still runs.');

export function fakeClock(options: FakeClockOptions = {}): FakeClock {
  const { sandbox, random } = options;
  const sleeps: number[] = [];
  let kept = options.start ?? Date.now();
  let offset = options.offsetMs ?? 0;
  let closed = false;
  const monotonic = () => (sandbox ? sandbox.clock.now().getTime() : kept);
  const advance = (ms: number) => {
    if (sandbox) sandbox.clock.advance({ ms });
    else kept += ms;
  };
  return {
    sleeps,
    now: () => monotonic() + offset,
    monotonic,
    ...(random === undefined ? {} : { random: () => random * 0.999_999 }),
    advance,
    shiftWall: (ms) => void (offset += ms),
    close: () => void (closed = true),
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      if (closed) throw sleepAfterClose();
      sleeps.push(ms);
      advance(ms);
      if (!sandbox) return;
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
    },
  };
}
