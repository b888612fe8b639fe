/**
 * The rate-limit fields read against test vectors we did not write: the examples of IETF
 * draft-ietf-httpapi-ratelimit-headers-10, the older forms seen in the wild and malformed values
 * (fixtures/ratelimit-headers.json, a copy of the shared fixture), plus our own beside them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { budgetOf, parseRetryAfter, readRateLimitFields } from '../../src/core/rate-limit/headers.js';
import fixture from './fixtures/ratelimit-headers.json' with { type: 'json' };

interface Expect {
  policies?: { name?: string; quota?: number; window?: number; unit?: string; partitionKey?: string }[];
  requestPolicies?: unknown[];
  remaining?: Record<string, number>;
  resetSeconds?: Record<string, number>;
  retryAfterSeconds?: number | null;
  waitSeconds?: number;
  ignored?: boolean;
  /** The budget paced by (our vectors): the policy it comes from, its remaining and window. */
  budget?: { limit: number; remaining: number; windowMs?: number } | null;
}
interface Vector {
  name: string;
  now?: string;
  headers: Record<string, string>;
  expect: Expect;
}

const OURS: Vector[] = [
  {
    name: 'ours: X-RateLimit-* as the draft -06 form',
    headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': '9' },
    expect: { policies: [{ quota: 60 }], remaining: { '': 3 }, resetSeconds: { '': 9 } },
  },
  {
    name: 'ours: a trailing comma makes the policy field malformed',
    headers: { 'RateLimit-Policy': '"a";q=1;w=1,' },
    expect: { ignored: true },
  },
  {
    name: 'ours: an unterminated String is malformed',
    headers: { RateLimit: '"default;r=5;t=1' },
    expect: { ignored: true },
  },
  { name: 'ours: r below zero is malformed', headers: { RateLimit: '"default";r=-1;t=1' }, expect: { ignored: true } },
  {
    name: 'ours: 400 nines of Retry-After are a day, not an overflow',
    headers: { 'Retry-After': '9'.repeat(400) },
    expect: { retryAfterSeconds: 86_400 },
  },
  {
    name: 'ours: the year 9999 is a day, not an overflow',
    now: 'Mon, 23 Nov 2026 08:00:00 GMT',
    headers: { 'Retry-After': 'Fri, 31 Dec 9999 23:59:59 GMT' },
    expect: { retryAfterSeconds: 86_400 },
  },
  {
    name: 'ours: a fraction of a second is not delay-seconds',
    headers: { 'Retry-After': '1.5' },
    expect: { retryAfterSeconds: null },
  },
  {
    name: 'ours: many digits after other text are garbage, not a day',
    headers: { 'Retry-After': `x${'9'.repeat(20)}` },
    expect: { retryAfterSeconds: null },
  },
  {
    name: 'ours: many digits before other text are garbage, not a day',
    headers: { 'Retry-After': `${'9'.repeat(20)}x` },
    expect: { retryAfterSeconds: null },
  },
  {
    name: 'ours: a date-shaped value that is no date is garbage',
    headers: { 'Retry-After': 'Mon, 45 Jan 2026 99:99:99 GMT' },
    expect: { retryAfterSeconds: null },
  },
  // Policies: q is required, w=0 states no window, a bad member spoils the field.
  {
    name: 'ours: a draft-10 policy without q is malformed',
    headers: { 'RateLimit-Policy': '"default";w=60' },
    expect: { ignored: true },
  },
  {
    name: 'ours: a legacy policy that is not a number is malformed',
    headers: { 'RateLimit-Policy': 'abc;w=60' },
    expect: { ignored: true },
  },
  {
    name: 'ours: w=0 states no window',
    headers: { 'RateLimit-Policy': '"default";q=100;w=0, 50;w=0' },
    expect: { policies: [{ name: 'default', quota: 100 }, { quota: 50 }] },
  },
  {
    name: 'ours: an explicit request unit counts',
    headers: { 'RateLimit-Policy': '"r";q=100;w=60;qu="requests"', RateLimit: '"r";r=7;t=3' },
    expect: {
      policies: [{ name: 'r', quota: 100, window: 60, unit: 'requests' }],
      budget: { limit: 100, remaining: 7, windowMs: 60_000 },
    },
  },
  // Which policy the budget comes from.
  {
    name: 'ours: a byte quota with fewer left does not pace requests; the request policy does',
    headers: {
      'RateLimit-Policy': '"bytes";q=65535;qu="content-bytes";w=10, "req";q=100;w=60',
      RateLimit: '"bytes";r=10;t=5, "req";r=50;t=30',
    },
    expect: {
      remaining: { bytes: 10, req: 50 },
      resetSeconds: { bytes: 5, req: 30 },
      budget: { limit: 100, remaining: 50, windowMs: 60_000 },
    },
  },
  {
    name: 'ours: of two request policies, the one with fewer left',
    headers: {
      'RateLimit-Policy': '"min";q=10;w=1, "hour";q=1000;w=3600',
      RateLimit: '"min";r=2;t=1, "hour";r=900;t=1800',
    },
    expect: { budget: { limit: 10, remaining: 2, windowMs: 1000 } },
  },
  {
    name: 'ours: of two request policies, the one with fewer left, listed last',
    headers: {
      'RateLimit-Policy': '"hour";q=1000;w=3600, "min";q=10;w=1',
      RateLimit: '"hour";r=900;t=1800, "min";r=2;t=1',
    },
    expect: { budget: { limit: 10, remaining: 2, windowMs: 1000 } },
  },
  {
    name: 'ours: draft-07 fields with a named policy: the one policy applies',
    headers: { RateLimit: 'limit=100, remaining=50, reset=30', 'RateLimit-Policy': '"default";q=100;w=60' },
    expect: {
      policies: [{ name: 'default', quota: 100, window: 60 }],
      remaining: { '': 50 },
      resetSeconds: { '': 30 },
      budget: { limit: 100, remaining: 50, windowMs: 60_000 },
    },
  },
  {
    name: 'ours: a draft-10 name no policy has, with one policy: that policy applies',
    headers: { RateLimit: '"other";r=5;t=10', 'RateLimit-Policy': '"default";q=100;w=60' },
    expect: { budget: { limit: 100, remaining: 5, windowMs: 60_000 } },
  },
  {
    name: 'ours: a draft-10 name no policy has, with two: no policy applies',
    headers: { RateLimit: '"other";r=5;t=10', 'RateLimit-Policy': '"a";q=100;w=60, "b";q=10;w=1' },
    expect: { budget: { limit: 5, remaining: 5 } },
  },
  {
    name: 'ours: two unnamed policies: the first applies to the separate fields',
    headers: { 'RateLimit-Remaining': '4', 'RateLimit-Policy': '600;w=60, 10;w=1' },
    expect: { budget: { limit: 600, remaining: 4, windowMs: 60_000 } },
  },
  // draft-07 dictionary and draft-10 list: one bad member, the field is ignored.
  {
    name: 'ours: draft-07 with a limit that is not a number is malformed',
    headers: { RateLimit: 'limit=abc, remaining=5' },
    expect: { ignored: true },
  },
  {
    name: 'ours: draft-07 with a negative reset is malformed',
    headers: { RateLimit: 'remaining=5, reset=-1' },
    expect: { ignored: true },
  },
  {
    name: 'ours: draft-07 with a remaining that is not a number is malformed',
    headers: { RateLimit: 'remaining=x' },
    expect: { ignored: true },
  },
  {
    name: 'ours: draft-07 remaining alone: no policy, no reset',
    headers: { RateLimit: 'remaining=5' },
    expect: { policies: [], remaining: { '': 5 }, resetSeconds: {} },
  },
  {
    name: 'ours: draft-07 next to RateLimit-Policy: the policy field names the policies',
    headers: { RateLimit: 'limit=10, remaining=5', 'RateLimit-Policy': '600;w=60' },
    expect: { policies: [{ quota: 600, window: 60 }], remaining: { '': 5 }, resetSeconds: {} },
  },
  {
    name: 'ours: draft-10 with a token member is malformed',
    headers: { RateLimit: '"a";r=5, b;r=3' },
    expect: { ignored: true },
  },
  {
    name: 'ours: draft-10 with a member without r is malformed',
    headers: { RateLimit: '"a";r=5, "b";t=5' },
    expect: { ignored: true },
  },
  {
    name: 'ours: draft-10 without t: no reset',
    headers: { RateLimit: '"a";r=5' },
    expect: { remaining: { a: 5 }, resetSeconds: {} },
  },
  // The separate fields (draft-06 and earlier).
  {
    name: 'ours: remaining alone: no policy, no reset',
    headers: { 'RateLimit-Remaining': '5' },
    expect: { policies: [], remaining: { '': 5 }, resetSeconds: {} },
  },
  {
    name: 'ours: RateLimit-Limit is the quota in force over the policy field',
    headers: { 'RateLimit-Limit': '50', 'RateLimit-Remaining': '5', 'RateLimit-Policy': '100;w=60' },
    expect: { policies: [{ quota: 50, window: 60 }] },
  },
  {
    name: 'ours: draft-03 policies on RateLimit-Limit, spaced',
    headers: { 'RateLimit-Limit': '600 , 600;w=60', 'RateLimit-Remaining': '5' },
    expect: { policies: [{ quota: 600, window: 60 }] },
  },
  {
    name: 'ours: RateLimit-Policy wins over draft-03 policies on RateLimit-Limit',
    headers: { 'RateLimit-Limit': '100, 100;w=10', 'RateLimit-Remaining': '5', 'RateLimit-Policy': '100;w=60' },
    expect: { policies: [{ quota: 100, window: 60 }] },
  },
  {
    name: 'ours: a reset of exactly 10^9 is a delay in seconds, not an epoch time (headers.test.ts checks its clamp to a day)',
    headers: { 'RateLimit-Remaining': '5', 'RateLimit-Reset': '1000000000' },
    expect: { budget: { limit: 5, remaining: 5 }, resetSeconds: { '': 1e9 }, remaining: { '': 5 } },
  },
];

const vectors = [...(fixture.vectors as Vector[]), ...OURS];

describe.each(vectors)('$name', (vector) => {
  const headers = new Headers(vector.headers);
  const now = vector.now ? Date.parse(vector.now) : Date.UTC(2026, 10, 23, 8);
  // Read inside each test, not while the tests are collected: a mutant under test is active only then.
  let reading: ReturnType<typeof readRateLimitFields>;
  beforeEach(() => {
    reading = readRateLimitFields(headers);
  });
  const { expect: want } = vector;

  if (want.ignored) {
    it('is ignored whole', () => expect(reading).toBeUndefined());
  }
  if (want.policies) {
    it('reads the policies', () => expect(reading?.policies).toStrictEqual(want.policies));
  }
  if (want.requestPolicies) {
    it('leaves out policies that do not count requests', () => {
      expect(reading?.policies.filter((p) => p.unit === undefined || p.unit === 'requests')).toEqual(
        want.requestPolicies,
      );
      expect(budgetOf(reading!, now)).toBeUndefined();
    });
  }
  if (want.remaining) {
    it('reads remaining and reset per policy', () => {
      expect(reading?.remaining).toStrictEqual(want.remaining);
      expect(reading?.resetSeconds).toStrictEqual(want.resetSeconds ?? {});
    });
  }
  if (want.budget !== undefined) {
    it('paces by the right policy', () => {
      const state = budgetOf(reading!, now);
      const { resetAt: _resetAt, ...rest } = state ?? { resetAt: undefined };
      expect(state === undefined ? null : rest).toStrictEqual(want.budget);
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
