import type { ClientClock, RateLimitState } from '../index.js';

const DEFAULT_LIMIT = 600;
const DEFAULT_WINDOW_MS = 60_000;

/**
 * The watcher's share of the key's budget: at most `share` × limit calls in any span of one window
 * (the limit and window as the service last reported them). A sliding window over the times of the
 * last calls, so no burst at a window's edge can double the share. Waits go through the clock; the
 * window is measured on its monotonic reading (a clock set back would otherwise hold every call).
 */
export class CallBudget {
  readonly #clock: ClientClock;
  readonly #share: number;
  readonly #limits: () => RateLimitState | undefined;
  /** Start times of the most recent calls, oldest first, at most `allowed` of them. */
  #recent: number[] = [];
  waitedMs = 0;

  constructor(clock: ClientClock, share: number, limits: () => RateLimitState | undefined) {
    this.#clock = clock;
    this.#share = share;
    this.#limits = limits;
  }

  /** Whether `take()` would wait now: the share of the window is used up. */
  wouldWait(): boolean {
    const state = this.#limits();
    const windowMs = state?.windowMs ?? DEFAULT_WINDOW_MS;
    const allowed = Math.max(1, Math.floor((state?.limit ?? DEFAULT_LIMIT) * this.#share));
    const oldest = this.#recent.at(-allowed);
    return this.#recent.length >= allowed && oldest !== undefined && this.#clock.monotonic() - oldest < windowMs;
  }

  /** Resolve when one more call fits in the share (rejects when `signal` aborts the wait). */
  async take(signal: AbortSignal): Promise<void> {
    for (;;) {
      const state = this.#limits();
      const windowMs = state?.windowMs ?? DEFAULT_WINDOW_MS;
      const allowed = Math.max(1, Math.floor((state?.limit ?? DEFAULT_LIMIT) * this.#share));
      if (this.#recent.length > allowed) this.#recent = this.#recent.slice(-allowed);
      const now = this.#clock.monotonic();
      const oldest = this.#recent[0];
      if (this.#recent.length < allowed || oldest === undefined || now - oldest >= windowMs) {
        if (this.#recent.length >= allowed) this.#recent.shift();
        this.#recent.push(now);
        return;
      }
      const wait = oldest + windowMs - now;
      this.waitedMs += wait;
      await this.#clock.sleep(wait, signal);
    }
  }
}
