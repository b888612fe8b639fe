/**
 * A RateLimitError always says how long to wait (`retryAfterMs`, a number), and it is the wait the
 * SDK itself keeps before the next attempt: the service's Retry-After; without it, the RateLimit
 * reset when the same answer shows the budget spent; without either, the SDK's own backoff.
 */
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { steppingClock, useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_rate-limited-wait-0123456789';
const { server, client } = useScriptedServer(KEY);
const RATE_LIMITED = JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } });
const spent = (resetSeconds: number) => ({
  'ratelimit-limit': '600',
  'ratelimit-remaining': '0',
  'ratelimit-reset': String(resetSeconds),
  'ratelimit-policy': '600;w=60',
});

const failure = async (maxRetries: number, clock = steppingClock(0.5), rateLimit: false | object = {}) => {
  const error = await client({ maxRetries, clock, rateLimit })
    .request({ method: 'GET', path: '/summary' })
    .then(
      () => undefined,
      (e: unknown) => e as RateLimitError,
    );
  return { error, sleeps: clock.sleeps };
};

describe('RateLimitError.retryAfterMs is the wait the SDK keeps', () => {
  it('the service’s Retry-After, when it gave one', async () => {
    server.script({ status: 429, headers: { 'retry-after': '3', ...spent(40) }, body: RATE_LIMITED });
    const { error } = await failure(0);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.retryAfterMs).toBe(3000);
  });

  it.each([{}, false] as const)(
    'without Retry-After, until the RateLimit reset of a spent budget (rateLimit: %j)',
    async (rateLimit) => {
      server.script({ status: 429, headers: spent(7), body: RATE_LIMITED });
      const { error } = await failure(0, steppingClock(0.5), rateLimit);
      expect(error?.retryAfterMs).toBe(7000);

      server.script({ status: 429, headers: spent(7), body: RATE_LIMITED });
      const retried = await failure(1, steppingClock(0.5), rateLimit);
      expect(retried.error).toBeUndefined();
      expect(retried.sleeps).toEqual([7000]);
    },
  );

  it('without Retry-After or a spent budget, the SDK’s backoff for that attempt', async () => {
    // Backoff with full jitter: random 0.5 of a first ceiling of 500 ms, of a second of 1000 ms.
    server.script({ status: 429, body: RATE_LIMITED });
    const { error } = await failure(0);
    expect(error?.retryAfterMs).toBe(250);

    server.script(
      { status: 429, body: RATE_LIMITED },
      { status: 429, body: RATE_LIMITED },
      { status: 429, body: RATE_LIMITED },
    );
    const retried = await failure(2);
    expect(retried.sleeps).toEqual([250, 500]);
    expect(retried.error).toMatchObject({ code: 'rate_limited', retryAfterMs: 1000, attempts: 3 });
  });

  it('a 429 from a proxy, as an HTML page without headers, is a RateLimitError with a number too', async () => {
    server.script({
      status: 429,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>Too Many Requests</body></html>',
    });
    const { error } = await failure(0);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'rate_limited', serviceCode: undefined, retryAfterMs: 250 });
  });
});
