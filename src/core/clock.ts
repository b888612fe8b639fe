/** Waiting and time, replaceable in tests so that retries and backoff run without real sleeping. */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /** Resolve after `ms`, or reject with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1) for the backoff's jitter. @default Math.random */
  random?(): number;
  /**
   * Milliseconds from an arbitrary start that only move on as time passes: what long-running work
   * (`watchEvents`) measures intervals by, so setting the machine's clock (NTP, a VM restored from
   * a snapshot) changes none of them. Only differences between readings mean anything.
   * @default performance.now() for the real clock; a clock without it measures intervals by `now()`
   */
  monotonic?(): number;
}

/**
 * A clock with its monotonic reading filled in, as the client keeps it (`client.clock`): the
 * clock's own `monotonic()`, or `now()` for a clock that has none (a test's simulated clock, which
 * only moves forward anyway). Everything that measures an interval reads `monotonic()`.
 */
export type ClientClock = Clock & { monotonic(): number };

/** The clock as the client keeps it: itself when it has a monotonic reading, otherwise a view of it that measures by `now()`. */
export function withMonotonic(clock: Clock): ClientClock {
  if (typeof clock.monotonic === 'function') return clock as ClientClock;
  const view: ClientClock = {
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    monotonic: () => clock.now(),
  };
  const random = clock.random;
  if (random) view.random = () => random.call(clock);
  return view;
}

export const realClock: ClientClock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  random: Math.random,
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
