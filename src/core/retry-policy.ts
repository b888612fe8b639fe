import {
  ConnectionError,
  PartnerApiError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  isPartnerApiError,
  isPartnerError,
  type PartnerError,
} from './errors.js';
import type { RateLimitState } from './rate-limit/headers.js';

/**
 * Whether an operation may be sent again (contract, "Retry safety, per operation").
 * `safe`: every GET and every idempotent write. `unsafe`: the creator-samples decision and
 * `client.request()` writes not marked `retrySafe`, which repeat only when the service itself
 * said it did not act on them.
 */
export type RetrySafety = 'safe' | 'unsafe';

/** Statuses a safe operation is repeated after. */
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
/**
 * Statuses after which the service itself says it did not act: 503 (it refused before acting)
 * and 500 (the spec: "Retrying is safe"). A 502 or 504 is a gateway's word, and a gateway may
 * already have passed the request on.
 */
const NOT_ACTED_STATUS = new Set([500, 503]);

/** May this failure be repeated? A short ordered list; the first rule that matches decides. */
export function mayRetry(error: unknown, safety: RetrySafety): boolean {
  // A rate limiter refuses before anything acts, whoever runs it.
  if (error instanceof RateLimitError) return true;
  if (error instanceof PartnerApiError) {
    if (!RETRYABLE_STATUS.has(error.status)) return false;
    // Only the service's own answer (its JSON error body, so `serviceCode`) speaks for the service:
    // a 500 or 503 page from a proxy is a gateway's word like a 502.
    return safety === 'safe' || (NOT_ACTED_STATUS.has(error.status) && error.serviceCode !== undefined);
  }
  if (error instanceof ConnectionError) return safety === 'safe' || !error.mayHaveReachedServer;
  if (error instanceof TimeoutError) return safety === 'safe';
  return false;
}

/**
 * Whether the service may have acted on an attempt that failed so: the service failing mid-way
 * (a 5xx other than 503, which it sends before acting), a time-out, a connection lost after the
 * request left. A 500 is retried (the spec calls that safe), yet it may come after the change was made.
 */
export function mayHaveActed(error: unknown): boolean {
  if (error instanceof PartnerApiError) return error.status >= 500 && error.status !== 503;
  if (error instanceof ConnectionError) return error.mayHaveReachedServer;
  return error instanceof TimeoutError;
}

/**
 * Whether a failed call leaves its effect in doubt, for a caller who can settle the doubt with one
 * read: wider than the transport's rule for repeating a write, it also doubts a 503 (a proxy's page
 * looks the same) and an answer that could not be read. There, a report that says "failed" of a
 * change that was made costs an operator much more than the read.
 */
export function effectInDoubt(error: PartnerError): boolean {
  if (error instanceof PartnerApiError) return error.status >= 500;
  return mayHaveActed(error) || error instanceof UnexpectedResponseError;
}

/** Codes of failures that pass with time: a caller that polls tries again at its next turn. */
const TRANSIENT_CODES = new Set([
  'connection_error',
  'timeout',
  'internal_error',
  'rate_limited',
  'unexpected_response',
]);

/** Whether a failure passes with time (a poller's next turn may succeed): any 5xx, a lost connection, a time-out, a rate limit, an unreadable answer. */
export function isTransient(error: unknown): boolean {
  return (
    isPartnerError(error) && (TRANSIENT_CODES.has(error.code) || (isPartnerApiError(error) && error.status >= 500))
  );
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

/**
 * How long a 429 without Retry-After holds the key, in ms: until the RateLimit reset when the
 * same answer shows the budget spent (the moment it refills), else our backoff for this attempt.
 * It becomes the `RateLimitError`'s `retryAfterMs` and the gate's pause, so the number on the
 * error is the wait the SDK keeps.
 */
export function rateLimitedWait(
  rateLimit: RateLimitState | undefined,
  now: number,
  attemptNumber: number,
  random: () => number,
): number {
  const untilReset = rateLimit?.remaining === 0 ? Math.ceil(rateLimit.resetAt.getTime() - now) : 0;
  return untilReset > 0 ? untilReset : backoffDelay(attemptNumber, random);
}
