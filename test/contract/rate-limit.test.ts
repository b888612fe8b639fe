import { describe, expect, it } from 'vitest';
import { fakeClock } from '../helpers/fake-clock.js';
import { openSandbox, TRANSPORTS } from './support/harness.js';

/** The sandbox's rate-limit windows on the fake clock, moved by hand: no sleeping. */
const manualClock = (start = 1_000_000) => fakeClock({ start });

describe.each(TRANSPORTS)('rate limits (%s)', (transport) => {
  it('sends RateLimit headers on every authenticated response, errors included', async () => {
    const h = await openSandbox(transport);
    const ok = await h.call('GET', '/summary');
    expect(ok.headers.get('ratelimit-limit')).toBe('600');
    expect(ok.headers.get('ratelimit-remaining')).toBe('599');
    expect(ok.headers.get('ratelimit-reset')).toBe('60');
    expect(ok.headers.get('ratelimit-policy')).toBe('600;w=60');
    const missing = await h.call('GET', '/locations/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-remaining')).toBe('598');
  });

  it('refuses requests over the limit with 429 rate_limited and Retry-After, without using budget', async () => {
    const clock = manualClock();
    const h = await openSandbox(
      transport,
      { rateLimitClock: clock.now },
      { rateLimit: { limit: 3, windowMs: 10_000 } },
    );
    for (let i = 0; i < 3; i++) expect((await h.call('GET', '/summary')).status).toBe(200);
    clock.advance(2_500);
    const refused = await h.call('GET', '/summary');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('8'); // 7.5 s left, rounded up
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe('8');
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await h.call('GET', '/summary')).status).toBe(429);
    // The window started at the first request; refused requests did not extend or use it.
    clock.advance(7_500);
    const next = await h.call('GET', '/summary');
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('2');
    expect(h.sandbox.requestCount({ status: 429 })).toBe(2);
  });

  it('rounds RateLimit-Reset up so a client waiting that long is never early', async () => {
    const clock = manualClock();
    const h = await openSandbox(
      transport,
      { rateLimitClock: clock.now },
      { rateLimit: { limit: 1, windowMs: 60_000 } },
    );
    await h.call('GET', '/summary');
    clock.advance(58_001);
    const refused = await h.call('GET', '/summary');
    expect(refused.headers.get('retry-after')).toBe('2');
    clock.advance(1_999);
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('keeps a separate budget per key', async () => {
    const clock = manualClock();
    const h = await openSandbox(transport, { rateLimitClock: clock.now, rateLimit: { limit: 1, windowMs: 1_000 } });
    const second = h.sandbox.issueKey({ account: h.key });
    expect((await h.call('GET', '/summary')).status).toBe(200);
    expect((await h.call('GET', '/summary')).status).toBe(429);
    expect((await h.call('GET', '/summary', { key: second })).status).toBe(200);
  });

  it('states a policy for small windows in whole seconds', async () => {
    const h = await openSandbox(transport, {}, { rateLimit: { limit: 5, windowMs: 200 } });
    const r = await h.call('GET', '/summary');
    expect(r.headers.get('ratelimit-policy')).toBe('5;w=1');
    expect(r.headers.get('ratelimit-reset')).toBe('1');
  });
});
