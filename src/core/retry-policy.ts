import { ConnectionError, PartnerApiError, RateLimitError, TimeoutError } from './errors.js';

/**
 * Whether an operation may be sent again (contract, "Retry safety, per operation").
 * `safe`: every GET and every idempotent write. `unsafe`: the creator-samples decision, which
 * repeats only when the service certainly did not act on it or says repeating is safe.
 */
export type RetrySafety = 'safe' | 'unsafe';

const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

/** May this failure be repeated? A short ordered list; the first rule that matches decides. */
export function mayRetry(error: unknown, safety: RetrySafety): boolean {
  if (error instanceof RateLimitError) return true;
  // The spec calls a 5xx safe to retry, even for the decision: the service did not act on it.
  if (error instanceof PartnerApiError) return RETRYABLE_STATUS.has(error.status);
  if (error instanceof ConnectionError) return safety === 'safe' || !error.mayHaveReachedServer;
  if (error instanceof TimeoutError) return safety === 'safe';
  return false;
}

/** First backoff ceiling and largest one, ms. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/**
 * Our own wait before attempt `attemptNumber + 1`, used only when the service gave no
 * Retry-After (that one is the gate's to wait): exponential backoff with full jitter, a random
 * wait up to a ceiling that doubles per attempt, capped.
 */
export function backoffDelay(attemptNumber: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attemptNumber - 1));
  return Math.round(random() * ceiling);
}
