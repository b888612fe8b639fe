export { parseRateLimitHeaders, type RateLimitState } from './headers.js';
export { parseRetryAfter } from './retry-after.js';
export {
  createRateLimiter,
  RateLimiterClosedError,
  type RateLimiter,
  type RateLimiterOptions,
} from './limiter.js';
export type { SharedBudget } from './shared.js';
