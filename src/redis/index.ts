/**
 * `@crp/partner-sdk/redis`: a key's rate budget shared by every process using the key, and a
 * watcher's checkpoint with a lease (replicas of the event stream), through Redis. A separate
 * import path, so that applications which do not share a budget do not carry this code.
 *
 * @module
 */
// The main entry itself, not a copy: ConfigurationError stays one class (tsup.config.ts keeps this
// import pointing at dist/index.js or dist/index.cjs).
import { ConfigurationError, type SharedBudget } from '../index.js';
import { defineSharedBudget, kindWithoutValue } from '../core/rate-limit/shared.js';
import type { Checkpoint } from '../events/index.js';
import { RedisCheckpoint, type RedisCheckpointOptions } from './checkpoint.js';
import {
  isRedisClient,
  RedisSharing,
  type RedisBudgetOptions,
  type RedisLike,
  type RedisOptionsLike,
} from './sharing.js';

export type { RedisBudgetOptions } from './sharing.js';
export type { RedisCheckpointOptions } from './checkpoint.js';

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
  checkConnection(redis, 'redisBudget()');
  checkOptions(options);
  return defineSharedBudget('redis', (context) => new RedisSharing(redis, options, context));
}

/**
 * A watcher's checkpoint in Redis, for `watchEvents()` run as replicas: its lock is a lease held by
 * one watcher, renewed every `leaseMs / 3` while it runs, released when it stops, and free
 * `leaseMs` after its holder died. With `standby: true` the other replicas wait for the lease and
 * the first to get it goes on from the checkpoint. Fenced: every save carries the lease's fence
 * (raised on every acquisition) and Redis refuses a stale one, so a holder that lost its lease
 * (paused, or cut off from Redis, past `leaseMs`) can neither deliver beside the new holder nor move
 * the checkpoint back; it stops with `CheckpointLockedError`. While Redis does not answer the holder
 * delivers nothing and goes on when it does. Needs `ioredis`, loaded when the lock is taken; keep
 * Redis persistent (AOF), or a restart loses the position and the watcher starts over.
 *
 * @throws ConfigurationError when `redis`, `key` or `leaseMs` is wrong.
 *
 * @example
 * ```ts
 * import { watchEvents } from '@crp/partner-sdk/events';
 * import { redisCheckpoint } from '@crp/partner-sdk/redis';
 *
 * const checkpoint = redisCheckpoint({ redis: process.env.REDIS_URL!, key: 'crp-events' });
 * for await (const event of watchEvents(client, { checkpoint, standby: true, signal })) await handle(event);
 * ```
 */
export function redisCheckpoint(options: RedisCheckpointOptions): Checkpoint {
  const o = (options ?? {}) as Partial<RedisCheckpointOptions>;
  const known = ['redis', 'key', 'leaseMs', 'logger'];
  for (const name of Object.keys(o)) {
    if (!known.includes(name))
      throw new ConfigurationError(
        `Unknown option ${name.slice(0, 60)} of redisCheckpoint(); known: ${known.join(', ')}.`,
      );
  }
  checkConnection(o.redis, 'redisCheckpoint()');
  if (typeof o.key !== 'string' || o.key.length === 0 || o.key.length > 200) {
    throw new ConfigurationError(
      `redisCheckpoint() needs a key: the checkpoint's name in Redis, 1 to 200 characters (e.g. 'crp-events'); got ${kindWithoutValue(o.key)}.`,
    );
  }
  if (o.leaseMs !== undefined && !(Number.isFinite(o.leaseMs) && o.leaseMs >= 100 && o.leaseMs <= 600_000)) {
    throw new ConfigurationError(
      `redisCheckpoint() option leaseMs must be a number of milliseconds from 100 to 600000; got ${String(o.leaseMs)}.`,
    );
  }
  return new RedisCheckpoint(o as RedisCheckpointOptions);
}

function checkConnection(redis: unknown, who: string): asserts redis is RedisConnection {
  if (typeof redis === 'string') {
    if (!REDIS_URL.test(redis)) {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(redis)?.[1];
      throw new ConfigurationError(
        `${who} takes a redis:// or rediss:// URL; got ${scheme ? `a URL starting with ${scheme}:` : 'a string that is not a URL'}.`,
      );
    }
  } else if (!isRedisClient(redis) && !isPlainObject(redis)) {
    throw new ConfigurationError(
      `${who} takes an ioredis client (new Redis(…)), ioredis options ({ host, port, … }) or a redis:// URL; got ${kindWithoutValue(redis)}.`,
    );
  }
}

function checkOptions(options: RedisBudgetOptions): void {
  for (const [name, value] of Object.entries(options)) {
    if (name !== 'assumeSharers' && name !== 'timeoutMs') {
      throw new ConfigurationError(
        `Unknown option ${name.slice(0, 60)} of redisBudget(); known: assumeSharers, timeoutMs.`,
      );
    }
    const ok =
      name === 'assumeSharers'
        ? Number.isInteger(value) && value >= 1 && value <= 1000
        : Number.isFinite(value) && value > 0 && value <= 60_000;
    if (value !== undefined && !ok) {
      throw new ConfigurationError(
        `redisBudget() option ${name} must be ` +
          `${name === 'assumeSharers' ? 'a whole number from 1 to 1000' : 'a number of milliseconds from 1 to 60000'}; ` +
          `got ${String(value)}.`,
      );
    }
  }
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
