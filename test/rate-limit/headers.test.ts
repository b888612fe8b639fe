import { describe, expect, it } from 'vitest';
import { parseRateLimitHeaders, parseRetryAfter } from '../../src/core/rate-limit/headers.js';

const NOW = Date.UTC(2026, 10, 3, 12, 0, 0);

function parse(headers: Record<string, string>) {
  return parseRateLimitHeaders(new Headers(headers), NOW);
}

describe('parseRateLimitHeaders', () => {
  it('reads the contract headers with a delta-seconds reset and the policy window', () => {
    expect(
      parse({
        'RateLimit-Limit': '600',
        'RateLimit-Remaining': '42',
        'RateLimit-Reset': '17',
        'RateLimit-Policy': '600;w=60',
      }),
    ).toEqual({ limit: 600, remaining: 42, resetAt: new Date(NOW + 17_000), windowMs: 60_000 });
  });

  it('reads each response on its own: a policy seen on one response is not remembered for the next', () => {
    const a = parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1', 'RateLimit-Policy': '600;w=60' });
    const b = parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1', 'RateLimit-Policy': '120;w=10' });
    const c = parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1' });
    const d = parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1', 'RateLimit-Policy': '600;w=60' });
    expect([a?.limit, a?.windowMs]).toEqual([600, 60_000]);
    expect([b?.limit, b?.windowMs]).toEqual([120, 10_000]);
    expect([c?.limit, c?.windowMs]).toEqual([5, undefined]);
    expect([d?.limit, d?.windowMs]).toEqual([600, 60_000]);
  });

  it('treats a reset of 10^9 or less as delay-seconds (clamped to a day)', () => {
    expect(parse({ 'RateLimit-Remaining': '3', 'RateLimit-Reset': '1000000000' })?.resetAt).toEqual(
      new Date(NOW + 24 * 3600_000),
    );
  });

  it('treats a reset larger than 10^9 as epoch seconds', () => {
    const epoch = NOW / 1000 + 25;
    expect(
      parse({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '3', 'RateLimit-Reset': String(epoch) })?.resetAt,
    ).toEqual(new Date(NOW + 25_000));
  });

  it('leaves windowMs out when no policy states it', () => {
    const state = parse({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '3', 'RateLimit-Reset': '1' });
    expect(state).toEqual({ limit: 10, remaining: 3, resetAt: new Date(NOW + 1000) });
    expect(state && 'windowMs' in state).toBe(false);
  });

  it('takes the limit from the policy when RateLimit-Limit is missing', () => {
    expect(parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '2', 'RateLimit-Policy': '120;w=10' })).toEqual({
      limit: 120,
      remaining: 5,
      resetAt: new Date(NOW + 2000),
      windowMs: 10_000,
    });
  });

  it("reads draft-03's limit-with-policy form of RateLimit-Limit", () => {
    expect(parse({ 'RateLimit-Limit': '100, 100;w=60', 'RateLimit-Remaining': '7', 'RateLimit-Reset': '9' })).toEqual({
      limit: 100,
      remaining: 7,
      resetAt: new Date(NOW + 9000),
      windowMs: 60_000,
    });
  });

  it('reads the X-RateLimit-* variants', () => {
    expect(parse({ 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '4' })).toEqual({
      limit: 30,
      remaining: 0,
      resetAt: new Date(NOW + 4000),
    });
  });

  it('reads the structured RateLimit and RateLimit-Policy fields', () => {
    expect(parse({ RateLimit: '"default";r=50;t=30', 'RateLimit-Policy': '"default";q=600;w=60' })).toEqual({
      limit: 600,
      remaining: 50,
      resetAt: new Date(NOW + 30_000),
      windowMs: 60_000,
    });
  });

  it('picks the most restrictive of several structured policies, matched by name', () => {
    const state = parse({
      RateLimit: '"burst";r=90;t=5, "daily";r=3;t=3600',
      'RateLimit-Policy': '"burst";q=100;w=10, "daily";q=1000;w=86400',
    });
    expect(state).toEqual({ limit: 1000, remaining: 3, resetAt: new Date(NOW + 3_600_000), windowMs: 86_400_000 });
  });

  it('reads the draft-07 combined RateLimit header', () => {
    expect(parse({ RateLimit: 'limit=100, remaining=60, reset=12' })).toEqual({
      limit: 100,
      remaining: 60,
      resetAt: new Date(NOW + 12_000),
    });
  });

  it('assumes a long window when a budget comes without any reset', () => {
    expect(parse({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9' })?.resetAt).toEqual(new Date(NOW + 60_000));
    expect(parse({ 'RateLimit-Remaining': '9', 'RateLimit-Policy': '10;w=5' })?.resetAt).toEqual(new Date(NOW + 5000));
  });

  it('returns undefined when the response shows no budget', () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ 'RateLimit-Limit': '600', 'RateLimit-Reset': '10' })).toBeUndefined();
    expect(parse({ RateLimit: '"default";t=30' })).toBeUndefined();
  });

  it('returns undefined for garbage values instead of guessing', () => {
    expect(parse({ 'RateLimit-Remaining': 'lots', 'RateLimit-Reset': '10' })).toBeUndefined();
    expect(parse({ 'RateLimit-Remaining': '-1', 'RateLimit-Reset': '10' })).toBeUndefined();
    expect(parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': 'soon' })).toBeUndefined();
    expect(parse({ 'RateLimit-Remaining': '5', 'RateLimit-Reset': '-3' })).toBeUndefined();
    expect(parse({ RateLimit: '"default";r=abc;t=30' })).toBeUndefined();
  });

  it('never reports a limit below the remaining count', () => {
    expect(parse({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '8', 'RateLimit-Reset': '1' })?.limit).toBe(8);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 3 ', NOW)).toBe(3000);
  });

  it('reads an IMF-fixdate relative to now', () => {
    expect(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30_000);
  });

  it('reads the obsolete RFC 850 and asctime date forms', () => {
    expect(parseRetryAfter('Tuesday, 03-Nov-26 12:00:45 GMT', NOW)).toBe(45_000);
    expect(parseRetryAfter('Tue Nov  3 12:01:00 2026', NOW)).toBe(60_000);
  });

  it('never returns a negative wait for a date in the past', () => {
    expect(parseRetryAfter(new Date(NOW - 5000).toUTCString(), NOW)).toBe(0);
  });

  it('returns undefined when absent or invalid', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
    expect(parseRetryAfter('5', NOW)).toBe(5000);
    expect(parseRetryAfter('1 2', NOW)).toBeUndefined();
  });
});
