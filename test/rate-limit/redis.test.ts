import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimiter } from '../../src/core/rate-limit/limiter.js';
import { redisBudget } from '../../src/redis/index.js';
import { REDIS_SKIP_MESSAGE, redisServerAvailable, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { createFakeServer, idealMs, runJob } from './fake-server.js';

const available = redisServerAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

describe.skipIf(!available)('createRateLimiter with Redis (a budget shared by processes)', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    const started = await startRedisServer();
    if (!started) throw new Error(REDIS_SKIP_MESSAGE);
    redis = started;
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('keeps four limiters on separate connections at zero 429 and within 10% of the ideal time', async () => {
    const server = createFakeServer({ limit: 40, windowMs: 1000, latencyMs: () => 2 + Math.random() * 8 });
    const id = `test-${randomUUID()}`;
    const limiters: RateLimiter[] = Array.from({ length: 4 }, () => createRateLimiter({ id, shared: redisBudget(redis.url) }));
    try {
      const started = Date.now();
      await Promise.all(limiters.map((limiter) => runJob(60, 8, () => limiter.schedule(() => server.request()))));
      const elapsed = Date.now() - started;
      const ideal = idealMs(240, 40, 1000, 32, 20);
      console.info(
        `redis, 4 limiters x concurrency 8, 40/1 s, 240 calls: ${elapsed} ms, ideal ${ideal} ms, ratio ${(elapsed / ideal).toFixed(3)}, ` +
          `429s ${server.limited}, per window ${server.perWindow.join(' ')}`,
      );
      expect(server.limited).toBe(0);
      expect(elapsed / ideal).toBeLessThanOrEqual(1.1);
      // One budget for all four: never more than the limit in a window, and every full window used.
      expect(server.perWindow).toEqual([40, 40, 40, 40, 40, 40]);
    } finally {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    }
  });

  it('sends one request at a time across processes until a response shows the budget', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 5000, latencyMs: 20 });
    const id = `test-${randomUUID()}`;
    const limiters = Array.from({ length: 3 }, () => createRateLimiter({ id, shared: redisBudget(redis.url) }));
    try {
      await Promise.all(limiters.map((limiter) => Promise.all(Array.from({ length: 4 }, () => limiter.schedule(() => server.request())))));
      // The first request's answer took 40 ms; nothing else reached the server before it.
      expect(server.arrivals[1]!.at - server.arrivals[0]!.at).toBeGreaterThanOrEqual(38);
      expect(server.limited).toBe(0);
    } finally {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    }
  });

  it('pauses every process after one of them gets a 429 with Retry-After', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 5 });
    server.failNext(1, '1');
    const id = `test-${randomUUID()}`;
    const limiters = Array.from({ length: 2 }, () => createRateLimiter({ id, shared: redisBudget(redis.url) }));
    try {
      await Promise.all(limiters.map((limiter) => Promise.all(Array.from({ length: 3 }, () => limiter.schedule(() => server.request())))));
      const [first, second] = server.arrivals;
      expect(first!.status).toBe(429);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
      expect(server.limited).toBe(1);
    } finally {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    }
  });

  it("uses a caller's ioredis client without closing it", async () => {
    const client = new Redis(redis.url);
    const server = createFakeServer({ limit: 10, windowMs: 1000, latencyMs: 2 });
    const limiter = createRateLimiter({ id: `test-${randomUUID()}`, shared: redisBudget(client) });
    try {
      await Promise.all(Array.from({ length: 5 }, () => limiter.schedule(() => server.request())));
      await limiter.close();
      expect(await client.ping()).toBe('PONG');
      expect(server.limited).toBe(0);
    } finally {
      client.disconnect();
    }
  });
});
