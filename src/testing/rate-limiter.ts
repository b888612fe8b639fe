/**
 * Per-key fixed-window rate limit (spec §8). The window starts at its first request and lasts
 * `windowMs`; requests refused with 429 do not use up the budget. Times are REAL milliseconds
 * (clients wait on real timers), from an injectable clock.
 */
export interface RateLimit {
  /** Requests allowed per window. @default 600 */
  limit: number;
  /** Window length in milliseconds. @default 60000 */
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Whole seconds to wait before a retry can succeed (when refused). */
  retryAfterSeconds: number;
}

export class FixedWindow {
  #start = Number.NEGATIVE_INFINITY;
  #used = 0;

  constructor(
    readonly policy: RateLimit,
    private readonly clock: () => number,
  ) {}

  take(): RateDecision {
    const now = this.clock();
    const { limit, windowMs } = this.policy;
    if (now >= this.#start + windowMs) {
      this.#start = now;
      this.#used = 0;
    }
    const allowed = this.#used < limit;
    if (allowed) this.#used++;
    // Rounded up, so a client that waits this long is never early.
    const resetSeconds = Math.max(1, Math.ceil((this.#start + windowMs - now) / 1000));
    return {
      allowed,
      retryAfterSeconds: resetSeconds,
      headers: {
        'RateLimit-Limit': String(limit),
        'RateLimit-Remaining': String(limit - this.#used),
        'RateLimit-Reset': String(resetSeconds),
        'RateLimit-Policy': `${limit};w=${Math.max(1, Math.ceil(windowMs / 1000))}`,
      },
    };
  }
}
