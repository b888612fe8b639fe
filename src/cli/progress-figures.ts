/**
 * The figures a progress display shows, computed for the moment it is drawn: the rate of rows that
 * were sent (rows decided without a call, such as those skipped on resume, do not count) over the
 * last half minute, and an ETA that the key's budget bounds. Computed at each frame, so a frame
 * drawn while the run waits for the budget shows the rate falling and the wait in the ETA.
 */
import type { RateLimitState } from '../index.js';

export interface Counts {
  /** Rows with an outcome that counts as progress (rows a stop left unsent do not). */
  done: number;
  /** Of those, the rows a call was made for. */
  sent: number;
  /** Rows not enrolled (invalid, conflict, failed). */
  notEnrolled: number;
}

export interface Figures {
  /** Rows sent per second, over the last {@link RATE_WINDOW_MS}. */
  rate: number;
  /** Milliseconds until every row has an outcome; undefined while nothing tells (no row sent yet). */
  etaMs: number | undefined;
}

/** The rate is measured over this much of the recent past. */
export const RATE_WINDOW_MS = 30_000;

export interface FigureOptions {
  total: number | undefined;
  now: () => number;
  /** The key's budget as the service last told it (`client.rateLimit`). */
  budget?: (() => RateLimitState | undefined) | undefined;
}

/** Counts as they come, figures when asked. */
export function figures({ total, now, budget }: FigureOptions): {
  record(counts: Counts): void;
  at(): Figures;
  counts(): Counts;
} {
  let last: Counts = { done: 0, sent: 0, notEnrolled: 0 };
  // When the sent count changed: the oldest within the window, and one before it as the baseline.
  const samples: Array<{ at: number; sent: number }> = [{ at: now(), sent: 0 }];
  return {
    record(counts) {
      if (counts.sent !== last.sent) samples.push({ at: now(), sent: counts.sent });
      last = counts;
    },
    counts: () => last,
    at() {
      const t = now();
      while (samples.length > 1 && (samples[1] as { at: number }).at <= t - RATE_WINDOW_MS) samples.shift();
      const base = samples[0] as { at: number; sent: number };
      const from = Math.max(base.at, t - RATE_WINDOW_MS);
      // The baseline's count stands for the start of the window: rows sent before it are not in it.
      const rate = t > from ? ((last.sent - base.sent) * 1000) / (t - from) : 0;
      if (total === undefined) return { rate, etaMs: undefined };
      const left = Math.max(0, total - last.done);
      if (left === 0) return { rate, etaMs: 0 };
      const byRate = rate > 0 ? (left / rate) * 1000 : undefined;
      const b = budget?.();
      // Rows past what is left of the window's budget wait for the reset, then a window per `limit` rows.
      const byBudget =
        b?.windowMs && b.limit > 0 && left > b.remaining
          ? Math.max(0, b.resetAt.getTime() - t) + ((left - b.remaining) / b.limit) * b.windowMs
          : undefined;
      if (byRate === undefined) return { rate, etaMs: byBudget };
      return { rate, etaMs: Math.max(byRate, byBudget ?? 0) };
    },
  };
}
