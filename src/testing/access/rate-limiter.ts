/**
 * Per-key rate limits, as the service's specification states them: fixed windows that start at their first request and last
 * `windowMs`; requests refused with 429 use no budget. A dialect may add a second advertised
 * window (two policies) or a hidden one (a burst limit the headers never mention), and decides
 * how the state is written into headers. Times come from the sandbox's rate clock.
 */
import type { Dialect, WindowView } from './dialects.js';

/** A rate limit: `limit` requests per fixed window of `windowMs` milliseconds. */
export interface RateLimit {
  /** Requests allowed per window. @default 600 */
  limit: number;
  /** Window length in milliseconds. @default 60000 */
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Headers for every answer to this key (rate-limit fields in the dialect's form). */
  headers: Record<string, string>;
  /** When refused: the Retry-After value, and whether a hidden (burst) limit refused it. */
  retryAfter?: string;
  retryAfterSeconds?: number;
  burst?: boolean;
}

class FixedWindow {
  #start = Number.NEGATIVE_INFINITY;
  #used = 0;

  constructor(readonly policy: RateLimit) {}

  roll(now: number): void {
    if (now >= this.#start + this.policy.windowMs) {
      this.#start = now;
      this.#used = 0;
    }
  }

  get full(): boolean {
    return this.#used >= this.policy.limit;
  }

  use(): void {
    this.#used++;
  }

  view(now: number): WindowView {
    return {
      ...this.policy,
      remaining: this.policy.limit - this.#used,
      resetMs: this.#start + this.policy.windowMs - now,
      resetAt: this.#start + this.policy.windowMs,
    };
  }
}

export class KeyLimits {
  readonly #advertised: FixedWindow[];
  readonly #hidden: FixedWindow[];

  constructor(
    readonly policy: RateLimit,
    private readonly dialect: Dialect,
    private readonly clock: () => number,
  ) {
    const windows = dialect.windows(policy);
    this.#advertised = windows.advertised.map((p) => new FixedWindow(p));
    this.#hidden = windows.hidden.map((p) => new FixedWindow(p));
  }

  take(): RateDecision {
    const now = this.clock();
    const all = [...this.#advertised, ...this.#hidden];
    for (const w of all) w.roll(now);
    const full = all.filter((w) => w.full);
    if (full.length === 0) for (const w of all) w.use();
    const headers = this.dialect.headers(
      this.#advertised.map((w) => w.view(now)),
      now,
    );
    if (full.length === 0) return { allowed: true, headers };
    // Rounded up, so a client that waits this long is never early.
    const waitMs = Math.max(...full.map((w) => w.view(now).resetMs));
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return {
      allowed: false,
      headers,
      retryAfterSeconds: seconds,
      retryAfter: this.dialect.retryAfter(seconds, now),
      burst: full.every((w) => this.#hidden.includes(w)),
    };
  }
}
