/**
 * Every dialect the sandbox speaks, checked with plain fetch over both transports: the header
 * forms other servers send (read here by small parsers written from the drafts, not by the SDK),
 * and the behaviours beyond headers (a hidden burst limit, 503s, slow pages).
 */
import { describe, expect, it, vi } from 'vitest';
import { createSandbox, DIALECT_NAMES } from '../../src/testing/index.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { openSandbox, TRANSPORTS } from './support/harness.js';

/** The sandbox's rate-limit windows on the fake clock, moved by hand: no sleeping. */
const manualClock = (start = 1_795_000_000_250) => fakeClock({ start });

/** A structured-field List of Strings with parameters (RFC 9651, the subset draft-10 uses). */
function sfList(text: string | null): Array<{ name: string; params: Record<string, string> }> {
  if (text === null) throw new Error('field missing');
  return text.split(',').map((item) => {
    const [head, ...params] = item.trim().split(';');
    const name = /^"([^"]*)"$/.exec(head ?? '')?.[1];
    if (name === undefined) throw new Error(`not a String item: ${item}`);
    return { name, params: Object.fromEntries(params.map((p) => p.split('=') as [string, string])) };
  });
}

describe.each(TRANSPORTS)('dialects (%s)', (transport) => {
  it('contract (the default): RateLimit-Limit/-Remaining/-Reset and RateLimit-Policy', async () => {
    const h = await openSandbox(transport, { dialect: 'contract' });
    const r = await h.call('GET', '/summary');
    expect([
      r.headers.get('ratelimit-limit'),
      r.headers.get('ratelimit-remaining'),
      r.headers.get('ratelimit-reset'),
      r.headers.get('ratelimit-policy'),
    ]).toEqual(['600', '599', '60', '600;w=60']);
    expect(r.headers.get('ratelimit')).toBeNull();
  });

  it('draft10: structured RateLimit-Policy and RateLimit fields only, 429 with Retry-After', async () => {
    const clock = manualClock();
    const h = await openSandbox(
      transport,
      { dialect: 'draft10', rateLimitClock: clock.now },
      { rateLimit: { limit: 2, windowMs: 10_000 } },
    );
    const first = await h.call('GET', '/summary');
    expect(sfList(first.headers.get('ratelimit-policy'))).toEqual([{ name: 'default', params: { q: '2', w: '10' } }]);
    expect(sfList(first.headers.get('ratelimit'))).toEqual([{ name: 'default', params: { r: '1', t: '10' } }]);
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      expect(first.headers.get(name)).toBeNull();
    clock.advance(3_200);
    await h.call('GET', '/summary');
    const refused = await h.call('GET', '/summary');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(sfList(refused.headers.get('ratelimit'))).toEqual([{ name: 'default', params: { r: '0', t: '7' } }]);
  });

  it('epoch-reset: the reset as a Unix time beside a Date header, Retry-After as an HTTP-date', async () => {
    const clock = manualClock();
    const h = await openSandbox(
      transport,
      { dialect: 'epoch-reset', rateLimitClock: clock.now },
      { rateLimit: { limit: 1, windowMs: 30_000 } },
    );
    const ok = await h.call('GET', '/summary');
    const resetAt = Math.ceil((clock.now() + 30_000) / 1000);
    expect(ok.headers.get('ratelimit-reset')).toBe(String(resetAt));
    expect(ok.headers.get('ratelimit-remaining')).toBe('0');
    expect(ok.headers.get('ratelimit-policy')).toBeNull();
    expect(Date.parse(ok.headers.get('date') as string)).toBe(Math.floor(clock.now() / 1000) * 1000);
    clock.advance(10_000);
    const refused = await h.call('GET', '/summary');
    expect(refused.status).toBe(429);
    const retryAt = Date.parse(refused.headers.get('retry-after') as string);
    expect(refused.headers.get('retry-after')).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    // Never early, at most a second late.
    expect(retryAt).toBeGreaterThanOrEqual(resetAt * 1000);
    expect(retryAt - resetAt * 1000).toBeLessThanOrEqual(1000);
  });

  it('two-policies: a short window beside the key’s own, both enforced; the headers describe the closer one', async () => {
    const clock = manualClock();
    const h = await openSandbox(
      transport,
      { dialect: 'two-policies', rateLimitClock: clock.now },
      { rateLimit: { limit: 60, windowMs: 60_000 } },
    );
    const first = await h.call('GET', '/summary');
    expect(first.headers.get('ratelimit-policy')).toBe('6;w=1, 60;w=60');
    expect([
      first.headers.get('ratelimit-limit'),
      first.headers.get('ratelimit-remaining'),
      first.headers.get('ratelimit-reset'),
    ]).toEqual(['6', '5', '1']);
    for (let i = 0; i < 5; i++) expect((await h.call('GET', '/summary')).status).toBe(200);
    const refused = await h.call('GET', '/summary');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Nine more full seconds use up the long window (60 in 10 s); then it is the one refusing.
    for (let s = 0; s < 9; s++) {
      clock.advance(1_000);
      for (let i = 0; i < 6; i++) expect((await h.call('GET', '/summary')).status).toBe(200);
    }
    clock.advance(1_000);
    const long = await h.call('GET', '/summary');
    expect(long.status).toBe(429);
    expect([
      long.headers.get('ratelimit-limit'),
      long.headers.get('ratelimit-remaining'),
      long.headers.get('retry-after'),
    ]).toEqual(['60', '0', '50']);
    clock.advance(50_000);
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('burst: 429 with a short Retry-After while the advertised window still has budget', async () => {
    const clock = manualClock();
    const h = await openSandbox(transport, { dialect: 'burst', rateLimitClock: clock.now });
    for (let i = 0; i < 10; i++) expect((await h.call('GET', '/summary')).status).toBe(200);
    clock.advance(500);
    const refused = await h.call('GET', '/summary');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('ratelimit-remaining')).toBe('590');
    clock.advance(1_500);
    const after = await h.call('GET', '/summary');
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit-remaining')).toBe('589');
  });

  it('unavailable: every third request is a 503 with Retry-After that never reaches the service', async () => {
    const h = await openSandbox(transport, { dialect: 'unavailable' });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const r = await h.enroll(`u-${i}`);
      statuses.push(r.status);
      if (r.status === 503) {
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body.error.code).toBe('unavailable');
        expect(r.headers.get('ratelimit-remaining')).toBeNull();
        expect(r.headers.get('x-request-id')).toMatch(/^req_/);
      }
    }
    expect(statuses).toEqual([201, 201, 503, 201, 201, 503]);
    expect(h.sandbox.inspect.stores(h.key).map((s) => s.partner_location_id)).toEqual(['u-1', 'u-2', 'u-4', 'u-5']);
    expect(h.sandbox.requestCount({ effective: true })).toBe(4);
    // A retry of the refused call succeeds.
    expect((await h.enroll('u-3')).status).toBe(201);
  });

  it('slow-pages: list pages take their time (and stop when the client gives up); other reads do not', async () => {
    const h = await openSandbox(transport, { dialect: 'slow-pages' });
    await h.enroll('p-1');
    let t = performance.now();
    expect((await h.call('GET', '/reservations')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(250);
    t = performance.now();
    expect((await h.call('GET', '/locations/p-1')).status).toBe(200);
    expect(performance.now() - t).toBeLessThan(250);
    await expect(h.call('GET', '/locations/p-1/content', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    // Over HTTP the server learns of the abort when the socket closes.
    await vi.waitFor(() =>
      expect(h.sandbox.requests.filter((r) => r.fault === 'dialect slow page').map((r) => [r.path, r.status])).toEqual([
        ['/partner/v1/reservations', 200],
        ['/partner/v1/locations/p-1/content', 0],
      ]),
    );
  });
});

describe('the rate clock', () => {
  it("'simulated' puts the windows on the sandbox clock: advancing it reopens them", async () => {
    const h = await openSandbox('http', { rateLimitClock: 'simulated' }, { rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await h.call('GET', '/summary')).status).toBe(200);
    const refused = await h.call('GET', '/summary');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    h.sandbox.clock.advance({ ms: 45_000 });
    expect((await h.call('GET', '/summary')).headers.get('retry-after')).toBe('15');
    h.sandbox.clock.advance({ ms: 15_000 });
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('names every dialect, and refuses one it does not speak', () => {
    expect(DIALECT_NAMES).toEqual([
      'contract',
      'draft10',
      'epoch-reset',
      'two-policies',
      'burst',
      'unavailable',
      'slow-pages',
    ]);
    // @ts-expect-error not a dialect
    expect(() => createSandbox({ dialect: 'ietf' })).toThrow(/dialect must be one of contract, draft10/);
  });
});
