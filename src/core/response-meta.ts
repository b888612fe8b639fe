import { parseRateLimitHeaders, type RateLimitState } from './rate-limit/headers.js';

/** What a call's HTTP response said besides its data; from `.withResponse()`. */
export interface ResponseMeta {
  /** HTTP status, e.g. 200 or 201 (an enrollment that created the store). */
  status: number;
  /** The response headers. */
  headers: Headers;
  /** The service's `x-request-id`, to quote to support. */
  requestId: string | undefined;
  /** The key's budget as this response reported it. */
  rateLimit: RateLimitState | undefined;
}

export function responseMeta(status: number, headers: Headers, now: number): ResponseMeta {
  // Parsed when first read: few callers look, and parsing the RateLimit headers on every response
  // was ~2% of a call (the limiter reads them on its own).
  let rateLimit: RateLimitState | undefined | null = null;
  return {
    status,
    headers,
    requestId: headers.get('x-request-id') ?? undefined,
    get rateLimit() {
      if (rateLimit === null) rateLimit = parseRateLimitHeaders(headers, now);
      return rateLimit;
    },
  };
}
