/**
 * The rate-limit fields read against test vectors we did not write: the examples of IETF
 * draft-ietf-httpapi-ratelimit-headers-10, the older forms seen in the wild and malformed values
 * (fixtures/ratelimit-headers.json, a copy of the shared fixture), plus our own beside them.
 */
import { describe, expect, it } from 'vitest';
import { budgetOf, readRateLimitFields } from '../../src/core/rate-limit/headers.js';
import { parseRetryAfter } from '../../src/core/rate-limit/retry-after.js';
import fixture from './fixtures/ratelimit-headers.json' with { type: 'json' };

interface Expect {
  policies?: { name?: string; quota?: number; window?: number; unit?: string; partitionKey?: string }[];
  requestPolicies?: unknown[];
  remaining?: Record<string, number>;
  resetSeconds?: Record<string, number>;
  retryAfterSeconds?: number | null;
  waitSeconds?: number;
  ignored?: boolean;
}
interface Vector {
  name: string;
  now?: string;
  headers: Record<string, string>;
  expect: Expect;
}

const OURS: Vector[] = [
  { name: 'ours: X-RateLimit-* as the draft -06 form', headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': '9' }, expect: { policies: [{ quota: 60 }], remaining: { '': 3 }, resetSeconds: { '': 9 } } },
  { name: 'ours: a trailing comma makes the policy field malformed', headers: { 'RateLimit-Policy': '"a";q=1;w=1,' }, expect: { ignored: true } },
  { name: 'ours: an unterminated String is malformed', headers: { RateLimit: '"default;r=5;t=1' }, expect: { ignored: true } },
  { name: 'ours: r below zero is malformed', headers: { RateLimit: '"default";r=-1;t=1' }, expect: { ignored: true } },
  { name: 'ours: 400 nines of Retry-After are a day, not an overflow', headers: { 'Retry-After': '9'.repeat(400) }, expect: { retryAfterSeconds: 86_400 } },
  { name: 'ours: the year 9999 is a day, not an overflow', now: 'Mon, 23 Nov 2026 08:00:00 GMT', headers: { 'Retry-After': 'Fri, 31 Dec 9999 23:59:59 GMT' }, expect: { retryAfterSeconds: 86_400 } },
  { name: 'ours: a fraction of a second is not delay-seconds', headers: { 'Retry-After': '1.5' }, expect: { retryAfterSeconds: null } },
  { name: 'ours: many digits after other text are garbage, not a day', headers: { 'Retry-After': `x${'9'.repeat(20)}` }, expect: { retryAfterSeconds: null } },
  { name: 'ours: many digits before other text are garbage, not a day', headers: { 'Retry-After': `${'9'.repeat(20)}x` }, expect: { retryAfterSeconds: null } },
  { name: 'ours: a date-shaped value that is no date is garbage', headers: { 'Retry-After': 'Mon, 45 Jan 2026 99:99:99 GMT' }, expect: { retryAfterSeconds: null } },
];

const vectors = [...(fixture.vectors as Vector[]), ...OURS];

describe.each(vectors)('$name', (vector) => {
  const headers = new Headers(vector.headers);
  const now = vector.now ? Date.parse(vector.now) : Date.UTC(2026, 10, 23, 8);
  const reading = readRateLimitFields(headers);
  const { expect: want } = vector;

  if (want.ignored) {
    it('is ignored whole', () => expect(reading).toBeUndefined());
  }
  if (want.policies) {
    it('reads the policies', () => expect(reading?.policies).toEqual(want.policies));
  }
  if (want.requestPolicies) {
    it('leaves out policies that do not count requests', () => {
      expect(reading?.policies.filter((p) => p.unit === undefined || p.unit === 'requests')).toEqual(want.requestPolicies);
      expect(budgetOf(reading!, now)).toBeUndefined();
    });
  }
  if (want.remaining) {
    it('reads remaining and reset per policy', () => {
      expect(reading?.remaining).toEqual(want.remaining);
      expect(reading?.resetSeconds).toEqual(want.resetSeconds ?? {});
    });
  }
  if (want.retryAfterSeconds !== undefined) {
    it('reads Retry-After', () => {
      const ms = parseRetryAfter(headers.get('retry-after'), now);
      expect(ms === undefined ? null : ms / 1000).toBe(want.retryAfterSeconds);
    });
  }
  if (want.waitSeconds !== undefined) {
    it('lets Retry-After win over the budget left', () => {
      expect(budgetOf(reading!, now)?.remaining).toBeGreaterThan(0);
      expect(parseRetryAfter(headers.get('retry-after'), now)).toBe(want.waitSeconds! * 1000);
    });
  }
});

describe('an asctime Retry-After (no zone named) is read as GMT, whatever the local time zone', () => {
  it('reads the same wait in New York as in UTC', () => {
    const before = process.env.TZ;
    const now = Date.UTC(1994, 10, 6, 8, 49, 30);
    try {
      process.env.TZ = 'America/New_York';
      expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(7000);
      expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7000);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
