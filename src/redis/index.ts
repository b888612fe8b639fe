/**
 * `@crp/partner-sdk/redis`: a key's rate budget shared by every process using the key, through
 * Redis. A separate import path, so that applications which do not share a budget do not carry
 * this code.
 *
 * @module
 */
// The main entry itself, not a copy: ConfigurationError stays one class (tsup.config.ts keeps this
// import pointing at dist/index.js or dist/index.cjs).
import { ConfigurationError, type SharedBudget } from '../index.js';
import { defineSharedBudget, kindOf } from '../core/rate-limit/shared.js';
import { isRedisClient, RedisSharing, type RedisBudgetOptions, type RedisLike, type RedisOptionsLike } from './sharing.js';

export type { RedisBudgetOptions } from './sharing.js';

/** An ioredis client, ioredis options (an object), or a `redis://` / `rediss://` URL. */
export type RedisConnection = RedisLike | RedisOptionsLike;

const REDIS_URL = /^rediss?:\/\//i;

/**
 * A rate budget shared through Redis, for `rateLimit: { shared }`: every client using the same
 * key, in any process, then paces by one budget, and a Retry-After any of them receives pauses
 * them all. Needs the optional peer dependency `ioredis`, loaded (with Bottleneck) on the
 * client's first call. If Redis is unreachable, calls neither hang nor fail for that reason: after
 * at most `timeoutMs` the client goes on with a local budget that assumes the last known number
 * of processes, logs one warning, and rejoins when Redis is back. `client.close()` releases the
 * connections within a second.
 *
 * @param redis An ioredis client (the SDK uses a duplicate of it and never closes yours), ioredis
 *   options such as `{ host, port, password }`, or a `redis://` / `rediss://` URL.
 * @param options `assumeSharers` (default 2) and `timeoutMs` (default 2000).
 * @throws ConfigurationError when `redis` or an option is none of these.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 * import { redisBudget } from '@crp/partner-sdk/redis';
 *
 * const client = new PartnerClient({ rateLimit: { shared: redisBudget('redis://127.0.0.1:6379') } });
 * ```
 */
export function redisBudget(redis: RedisConnection, options: RedisBudgetOptions = {}): SharedBudget {
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
  checkOptions(options);
  return defineSharedBudget('redis', (context) => new RedisSharing(redis, options, context));
}

function checkOptions(options: RedisBudgetOptions): void {
  for (const [name, value] of Object.entries(options)) {
    if (name !== 'assumeSharers' && name !== 'timeoutMs') {
      throw new ConfigurationError(`Unknown option ${name.slice(0, 60)} of redisBudget(); known: assumeSharers, timeoutMs.`);
    }
    const ok = name === 'assumeSharers' ? Number.isInteger(value) && value >= 1 && value <= 1000 : Number.isFinite(value) && value > 0 && value <= 60_000;
    if (value !== undefined && !ok) {
      throw new ConfigurationError(
        `redisBudget() option ${name} must be ${name === 'assumeSharers' ? 'a whole number from 1 to 1000' : 'a number of milliseconds from 1 to 60000'}; got ${String(value)}.`,
      );
    }
  }
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
