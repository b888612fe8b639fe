/**
 * Clients sharing a key's budget through a real redis-server (several clients in one process
 * stand for several processes: each has its own connections and its own gate).
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index.js';
import { redisBudget } from '../../src/redis/index.js';
import { REDIS_SKIP_MESSAGE, redisServerAvailable, useRedisServer } from '../helpers/redis-server.js';
import { createFakeServer, fakeFetch, idealMs, runJob, type FakeServer } from './fake-server.js';

const available = redisServerAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

let n = 0;
function clients(count: number, server: FakeServer, redis: string | Redis, logger = {}) {
  const apiKey = `crp_test_shared${process.pid}x${++n}`;
  return Array.from(
    { length: count },
    () =>
      new PartnerClient({
        apiKey,
        baseUrl: 'https://fake.test',
        fetch: fakeFetch(server),
        maxRetries: 0,
        logger,
        rateLimit: { shared: redisBudget(redis) },
      }),
  );
}
const ping = (client: PartnerClient) => client.request({ method: 'GET', path: '/ping' });

describe.skipIf(!available)('a budget shared through Redis', () => {
  const redis = useRedisServer();

  it('keeps four clients at zero 429, never over the limit in a window, near the ideal time', async () => {
    const server = createFakeServer({ limit: 40, windowMs: 1000, latencyMs: () => 2 + Math.random() * 8 });
    const all = clients(4, server, redis.url);
    try {
      const started = Date.now();
      await Promise.all(all.map((client) => runJob(60, 8, () => ping(client))));
      const elapsed = Date.now() - started;
      const ideal = idealMs(240, 40, 1000, 32, 20);
      console.info(
        `redis, 4 clients x 8 lanes, 40/1 s, 240 calls: ${elapsed} ms, ideal ${ideal} ms, 429s ${server.limited}, per window ${server.perWindow.join(' ')}`,
      );
      expect(server.limited).toBe(0);
      expect(server.ok).toBe(240);
      expect(Math.max(...server.perWindow)).toBeLessThanOrEqual(40);
      // Loose: the four clients share this test worker's event loop with other test files.
      expect(elapsed / ideal).toBeLessThanOrEqual(1.3);
    } finally {
      await Promise.all(all.map((client) => client.close()));
    }
  });

  it('pauses every client after one of them gets a 429 with Retry-After', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 5 });
    const [a, b] = clients(2, server, redis.url) as [PartnerClient, PartnerClient];
    try {
      await Promise.all([ping(a), ping(b)]);
      server.failNext(1, '1');
      const before = server.arrivals.length;
      await ping(a).catch(() => undefined);
      const paused = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await ping(b);
      const limited = server.arrivals[before]!;
      const next = server.arrivals[before + 1]!;
      expect(limited.status).toBe(429);
      expect(next.at - limited.at).toBeGreaterThanOrEqual(950);
      expect(Date.now() - paused).toBeGreaterThanOrEqual(850);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("uses a caller's ioredis client without closing it", async () => {
    const own = new Redis(redis.url);
    const server = createFakeServer({ limit: 10, windowMs: 1000, latencyMs: 2 });
    const [client] = clients(1, server, own) as [PartnerClient];
    try {
      await Promise.all(Array.from({ length: 5 }, () => ping(client)));
      await client.close();
      expect(await own.ping()).toBe('PONG');
      expect(server.limited).toBe(0);
    } finally {
      own.disconnect();
    }
  });

  it('goes on with a local budget within the timeout when Redis is unreachable, warns once, and closes at once', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 1 });
    const warnings: string[] = [];
    const [client] = clients(1, server, 'redis://127.0.0.1:1', {
      warn: (message: string) => warnings.push(message),
    }) as [PartnerClient];
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => ping(client)));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(server.ok).toBe(10);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis is unreachable; going on with a local budget for 2 processes/);
    const closing = Date.now();
    await client.close();
    expect(Date.now() - closing).toBeLessThan(1_000);
  });
});
