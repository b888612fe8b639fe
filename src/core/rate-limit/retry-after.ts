/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. The contract says 429 carries
 * delay-seconds and that an HTTP-date must also be understood.
 */

const DELAY_SECONDS = /^\d+(?:\.\d+)?$/;
// IMF-fixdate, RFC 850 and asctime all name a month and carry hh:mm:ss. Checking for that keeps
// Date.parse from accepting things like "5" (a year) or "1 2".
const HTTP_DATE = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s-].*\d{1,2}:\d{2}:\d{2}/i;

/** Retry-After as ms: delay-seconds or HTTP-date (relative to now); undefined if absent/invalid. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELAY_SECONDS.test(text)) return Math.round(Number(text) * 1000);
  if (!HTTP_DATE.test(text)) return undefined;
  // HTTP-dates are always GMT; asctime's form does not say so, and Date.parse would read local time.
  const at = Date.parse(/gmt|utc|[+-]\d{4}\b/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  // A date in the past means "now"; never a negative wait.
  return Math.max(0, at - now);
}
