/**
 * Which server window a response speaks about.
 *
 * The server counts requests in a fixed window that starts with its first request and reports
 * Reset rounded UP to whole seconds (contract, Rate limits). So a response received at `r` for a
 * request sent at `s`, with Reset `n` seconds, pins the true end of its window T to
 *
 *     s + (n - 1) * 1000  <  T  <=  r + n * 1000
 *
 * (the request was counted at some t in [s, r], and n - 1 < (T - t) / 1000 <= n). Consecutive
 * windows end at least one window length apart, so two responses whose intervals do not overlap
 * speak about different windows, and the later interval is the newer window. Responses about the
 * same window narrow the interval; refreshing at its upper end is never early.
 */

export interface Bounds {
  /** Strict lower bound on the end of the window (ms, limiter clock). */
  lo: number;
  /** Upper bound on the end of the window: refreshing here is never early. */
  hi: number;
}

export type Verdict = 'first' | 'newer' | 'same' | 'older';

export function boundsOf(resetAt: number, now: number, sentAt: number): Bounds {
  // With delta-seconds, resetAt = now + n * 1000. With an epoch Reset the same formula is looser,
  // still a valid lower bound.
  return { lo: resetAt - 1000 - Math.max(0, now - sentAt), hi: resetAt };
}

export function classify(current: Bounds | undefined, next: Bounds): Verdict {
  if (current === undefined) return 'first';
  if (next.lo >= current.hi) return 'newer';
  if (next.hi < current.lo) return 'older';
  return 'same';
}

export function intersect(a: Bounds, b: Bounds): Bounds {
  return { lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) };
}
