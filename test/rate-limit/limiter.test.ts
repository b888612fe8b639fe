import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, type RateLimiter } from '../../src/core/rate-limit/limiter.js';
import { createFakeServer, idealMs, runJob, type FakeServer } from './fake-server.js';

/** Advance fake time in small steps until `promise` settles (Bottleneck yields on setTimeout(0)). */
async function drive<T>(promise: Promise<T>, stepMs = 5, maxMs = 600_000): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  watched.catch(() => {});
  const start = Date.now();
  while (!settled) {
    if (Date.now() - start > maxMs) throw new Error('drive: timed out in fake time');
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  return watched;
}

let limiter: RateLimiter | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 10, 3, 12, 0, 0, 123));
});

afterEach(async () => {
  if (limiter) await drive(limiter.close());
  limiter = undefined;
  vi.useRealTimers();
});

function through(server: FakeServer, l: RateLimiter) {
  return () => l.schedule(() => server.request());
}

describe('createRateLimiter (one process)', () => {
  it('sends one request at a time until a response shows the budget', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 20 });
    limiter = createRateLimiter({ id: 'test' });
    const call = through(server, limiter);
    await drive(runJob(20, 10, call));
    // The second request reached the server only after the first response (40 ms round trip).
    expect(server.arrivals[1]!.at - server.arrivals[0]!.at).toBeGreaterThanOrEqual(40);
    expect(server.limited).toBe(0);
  });

  it('keeps 16 concurrent callers at zero 429 within 3% of the ideal time (120 per 10 s)', async () => {
    const server = createFakeServer({ limit: 120, windowMs: 10_000, latencyMs: () => 10 + Math.random() * 20 });
    limiter = createRateLimiter({ id: 'test' });
    const call = through(server, limiter);
    const started = Date.now();
    await drive(runJob(600, 16, call));
    const elapsed = Date.now() - started;
    const ideal = idealMs(600, 120, 10_000, 16, 60);
    const firsts = server.arrivals.filter((a, i, all) => i === 0 || all[i - 1]!.window !== a.window).map((a) => a.at - started);
    console.info('window starts', firsts, server.perWindow);
    console.info(`concurrency 16, 120/10 s, 600 calls: ${elapsed} ms, ideal ${ideal} ms, ratio ${(elapsed / ideal).toFixed(4)}, 429s ${server.limited}`);
    expect(server.limited).toBe(0);
    expect(elapsed / ideal).toBeLessThanOrEqual(1.03);
    // The whole budget of every window was used.
    expect(server.perWindow).toEqual([120, 120, 120, 120, 120]);
  });
});
