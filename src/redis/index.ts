/**
 * `@crp/partner-sdk/redis`: a key's rate budget kept in Redis and shared by every process using
 * the key. A separate import path, so that applications which do not share a budget do not carry
 * this code.
 *
 * @module
 */
// The main entry itself, not a copy: ConfigurationError stays one class (tsup.config.ts keeps this
// import pointing at dist/index.js or dist/index.cjs).
import { ConfigurationError, type SharedBudget } from '../index.js';
import { createRedisBudget, isRedisClient, type RedisLike, type RedisOptionsLike } from '../core/rate-limit/budget-redis.js';
import { defineSharedBudget, kindOf } from '../core/rate-limit/shared.js';

/** An ioredis client, ioredis options (an object), or a `redis://` / `rediss://` URL. */
export type RedisConnection = RedisLike | RedisOptionsLike;

const REDIS_URL = /^rediss?:\/\//i;

/**
 * A rate budget kept in Redis, for `rateLimit: { shared }`: every client using the same key, in
 * any process, then takes from one budget. Needs the optional peer dependency `ioredis`, loaded
 * (with Bottleneck) on the client's first call, which fails with a `ConfigurationError` if it is
 * not installed; `client.close()` releases the connections.
 *
 * @param redis An ioredis client (the SDK uses a duplicate of it and never closes yours), ioredis
 *   options such as `{ host, port, password }`, or a `redis://` / `rediss://` URL.
 * @throws ConfigurationError when `redis` is none of these.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 * import { redisBudget } from '@crp/partner-sdk/redis';
 *
 * const client = new PartnerClient({ rateLimit: { shared: redisBudget('redis://127.0.0.1:6379') } });
 * ```
 */
export function redisBudget(redis: RedisConnection): SharedBudget {
  if (typeof redis === 'string') {
    if (!REDIS_URL.test(redis)) {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(redis)?.[1];
      throw new ConfigurationError(
        `redisBudget() takes a redis:// or rediss:// URL; got ${scheme ? `a URL starting with ${scheme}:` : 'a string that is not a URL'}.`,
      );
    }
  } else if (!isRedisClient(redis) && !isPlainObject(redis)) {
    throw new ConfigurationError(
      'redisBudget() takes an ioredis client (new Redis(…)), ioredis options ({ host, port, … }) or a redis:// URL; ' +
        `got ${kindOf(redis)}.`,
    );
  }
  return defineSharedBudget('redis', (context) =>
    createRedisBudget({ ...context, redis, ioredisMissing: (message) => new ConfigurationError(message) }),
  );
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
