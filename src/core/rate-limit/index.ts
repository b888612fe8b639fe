export { parseRateLimitHeaders, type RateLimitState } from './headers.js';
export { parseRetryAfter } from './retry-after.js';
export {
  createRateLimiter,
  RateLimiterClosedError,
  type RateLimiter,
  type RateLimiterOptions,
  type RedisLike,
  type RedisOptionsLike,
} from './limiter.js';
