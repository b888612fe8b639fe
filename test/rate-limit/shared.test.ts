/**
 * The limiter's side of `rateLimit.shared`, without Redis: it starts the budget's engine on the
 * first call (never at creation), once, with the key's id, and closes it through the budget.
 */
import { describe, expect, it, vi } from 'vitest';
import { ConnectionError, PartnerClient } from '../../src/index.js';
import type { Budget, Engine } from '../../src/core/rate-limit/budget.js';
import { createRateLimiter } from '../../src/core/rate-limit/limiter.js';
import { LocalQueue } from '../../src/core/rate-limit/local-queue.js';
import { defineSharedBudget, type SharedBudgetContext } from '../../src/core/rate-limit/shared.js';

function fakeEngine() {
  const budget = { observe: vi.fn(), refund: vi.fn(), forecast: () => undefined, explain: () => undefined, hold: vi.fn(), close: vi.fn(async () => {}) } satisfies Budget;
  const limiter = new LocalQueue({ maxConcurrent: 4, reservoir: Number.POSITIVE_INFINITY });
  return { engine: { limiter, budget } satisfies Engine, close: budget.close, disconnect: vi.spyOn(limiter, 'disconnect') };
}

describe('createRateLimiter with a shared budget', () => {
  it('starts the engine on the first call, once, with the key id, and closes it through the budget', async () => {
    const { engine, close, disconnect } = fakeEngine();
    const start = vi.fn(async (_context: SharedBudgetContext) => engine);
    const limiter = createRateLimiter({ id: 'key-1', shared: defineSharedBudget('redis', start) });
    expect(start).not.toHaveBeenCalled();

    const results = await Promise.all([1, 2, 3].map((n) => limiter.schedule(async () => n)));
    expect(results).toEqual([1, 2, 3]);
    expect(await limiter.schedule(async () => 4)).toBe(4);
    expect(start).toHaveBeenCalledTimes(1);
    expect(start.mock.calls[0]![0]).toMatchObject({ bottleneckId: 'crp-partner-sdk:key-1' });

    await limiter.close();
    expect(close).toHaveBeenCalledTimes(1);
    // The shared budget's close() disconnects its own scheduler.
    expect(disconnect).not.toHaveBeenCalled();
  });

  it('fails the waiting calls with the error the engine failed to start with', async () => {
    const limiter = createRateLimiter({ id: 'key-2', shared: defineSharedBudget('redis', () => Promise.reject(new Error('ioredis is not installed'))) });
    await expect(limiter.schedule(async () => 1)).rejects.toThrow('ioredis is not installed');
    await limiter.close();
  });
});

describe('a client whose shared budget cannot start', () => {
  it('fails each call with a ConnectionError that says nothing was sent, and sends nothing', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const start = vi.fn(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')));
    const client = new PartnerClient({ apiKey: 'crp_test_0123456789abcdef', baseUrl: 'https://api.example.com', fetch, maxRetries: 0, rateLimit: { shared: defineSharedBudget('redis', start) } });
    const error = await client.locations.get('store-1').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', mayHaveReachedServer: false, request: { method: 'GET', path: '/partner/v1/locations/store-1' } });
    expect((error as ConnectionError).message).toMatch(/could not get a place in the rate budget, so nothing was sent: connect ECONNREFUSED 127\.0\.0\.1:6379\. With a shared budget, check the Redis connection\./);
    expect(fetch).not.toHaveBeenCalled();
    expect(start).toHaveBeenCalledTimes(1);
    await client.close();
  });
});
