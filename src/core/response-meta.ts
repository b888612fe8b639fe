import type { RateLimitState } from './rate-limit/headers.js';

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
