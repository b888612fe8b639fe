/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. On any status that carries it,
 * it is the server's word (draft-ietf-httpapi-ratelimit-headers-10 §6: it wins over the RateLimit
 * fields). Parsed once per response, by the transport; the gate is its only waiter.
 */
import { MAX_SERVER_WAIT_MS } from './headers.js';

const DELAY_SECONDS = /^\d{1,15}$/;
// IMF-fixdate, RFC 850 and asctime all name a month and carry hh:mm:ss. Checking for that keeps
// Date.parse from accepting things like "5" (a year) or "1 2".
const HTTP_DATE = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s-].*\d{1,2}:\d{2}:\d{2}/i;

/**
 * Retry-After in ms (relative to `now` for a date), clamped to a day so no timer overflows;
 * undefined when absent or malformed (negative, a fraction, garbage).
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Math.min(Number(text) * 1000, MAX_SERVER_WAIT_MS);
  // 400 nines: not a number a delay can be, and not a date either, but plainly "a long time".
  if (/^\d{16,}$/.test(text)) return MAX_SERVER_WAIT_MS;
  if (!HTTP_DATE.test(text)) return undefined;
  // HTTP-dates are always GMT; asctime's form does not say so, and Date.parse would read local time.
  const at = Date.parse(/gmt$/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  // A date in the past means "now"; never a negative wait.
  return Math.min(Math.max(0, at - now), MAX_SERVER_WAIT_MS);
}
