import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSharedKey } from '../../examples/shared-key-redis.js';
import { REDIS_SKIP_MESSAGE, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startExampleEnv, type ExampleEnv } from './sandbox.js';

// Throws when CRP_REQUIRE_REDIS=1 (CI) and redis-server is missing; otherwise skips with a message.
const redis: RedisServer | undefined = await startRedisServer();
if (!redis) console.warn(`examples/shared-key-redis.ts: ${REDIS_SKIP_MESSAGE}`);

describe.skipIf(!redis)('examples/shared-key-redis.ts', () => {
  let env: ExampleEnv;
  beforeAll(async () => {
    env = await startExampleEnv();
  });
  afterAll(async () => {
    await env?.close();
    await redis?.stop();
  });

  it('three processes on one key share its budget through Redis: every call done, no 429', {
    timeout: 60_000,
  }, async () => {
    // A small budget (15 calls a second) so that three workers must share it to avoid 429s.
    const apiKey = env.sandbox.issueKey({ rateLimit: { limit: 15, windowMs: 1_000 } });
    const started = Date.now();
    const reports = await runSharedKey({
      workers: 3,
      callsPerWorker: 15,
      apiKey,
      baseUrl: env.baseUrl,
      redisUrl: redis!.url,
      execArgv: ['--import', 'tsx'],
    });
    const elapsed = Date.now() - started;

    expect(reports.map((r) => r.calls)).toEqual([15, 15, 15]);
    expect(new Set(reports.map((r) => r.pid)).size).toBe(3);
    expect(reports.map((r) => r.rateLimited)).toEqual([0, 0, 0]);
    const summaryCalls = env.sandbox.requests.filter((r) => r.path === '/partner/v1/summary');
    expect(summaryCalls.filter((r) => r.status === 429)).toEqual([]);
    expect(summaryCalls.filter((r) => r.status === 200)).toHaveLength(45);
    // 45 calls at 15 a second need at least three windows: the processes waited for each other.
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
  });

  it('without a reachable Redis, the workers neither hang nor fail: each goes on with its local part and exits', {
    timeout: 60_000,
  }, async () => {
    const apiKey = env.sandbox.issueKey({ rateLimit: { limit: 30, windowMs: 1_000 } });
    const started = Date.now();
    const reports = await runSharedKey({
      workers: 2,
      callsPerWorker: 5,
      apiKey,
      baseUrl: env.baseUrl,
      redisUrl: 'redis://127.0.0.1:1',
      execArgv: ['--import', 'tsx'],
    });
    expect(reports.map((r) => r.calls)).toEqual([5, 5]);
    expect(reports.map((r) => r.rateLimited)).toEqual([0, 0]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
