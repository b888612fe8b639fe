/**
 * The four wait rules of the transport, each over a real HTTP port, with exact attempt counts and
 * exact waits on an injected clock (and real time where a wait must really be cut short).
 */
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  InternalServerError,
  PartnerClient,
  RateLimitError,
  TimeoutError,
  type CallObserver,
} from '../../src/index.js';
import { steppingClock, useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_waitrules0001';
const { server, client } = useScriptedServer(KEY);
const get = (c: PartnerClient, options = {}) => c.request({ method: 'GET', path: '/thing' }, options);
const budget = (remaining: number, reset: number, limit = 100) => ({
  'ratelimit-limit': String(limit),
  'ratelimit-remaining': String(remaining),
  'ratelimit-reset': String(reset),
  'ratelimit-policy': `${limit};w=60`,
});

function recorder() {
  const events: { type: string; [k: string]: unknown }[] = [];
  const telemetry = {
    startCall: (call: { operation: string }) => {
      events.push({ type: 'start', operation: call.operation });
      const observer: CallObserver = {
        attemptStart: (a) => void events.push({ type: 'attemptStart', attempt: a.attempt }),
        attemptEnd: (a) => void events.push({ type: 'attemptEnd', attempt: a.attempt, status: a.status }),
        waited: (w) => void events.push({ type: 'waited', reason: w.reason, ms: w.ms }),
        retrying: (r) => void events.push({ type: 'retrying', attempt: r.attempt, waitMs: r.waitMs, reason: r.reason }),
        end: (e) => void events.push({ type: 'end', attempts: e.attempts, status: e.status }),
      };
      return observer;
    },
  };
  return { events, telemetry };
}

describe('rule 1: Retry-After, on any status, is the server word and has one waiter', () => {
  it('waits exactly a 503 Retry-After (not our backoff), then succeeds on the second attempt', async () => {
    const clock = steppingClock();
    server.script({ status: 503, headers: { 'retry-after': '7' }, body: '' });
    await expect(get(client({ clock }))).resolves.toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
    expect(clock.sleeps).toEqual([7000]);
  });

  it('waits exactly a 429 Retry-After given as an HTTP-date', async () => {
    const clock = steppingClock();
    server.script({ status: 429, headers: { 'retry-after': new Date(clock.now() + 4000).toUTCString() }, body: '' });
    await get(client({ clock }));
    expect(clock.sleeps).toEqual([4000]);
  });

  it('backs off exponentially (500 ms, then 1000 ms) when a 500 gives no Retry-After, 3 attempts in all', async () => {
    const clock = steppingClock(1);
    server.script({ status: 500, body: '' }, { status: 500, body: '' });
    await get(client({ clock }));
    expect(server.received).toHaveLength(3);
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  it('lets Retry-After win over RateLimit fields that show budget left, and reports it as retry_after', async () => {
    const clock = steppingClock();
    const { events, telemetry } = recorder();
    server.script({ status: 429, headers: { 'retry-after': '2', ...budget(40, 58) }, body: '' });
    await get(client({ clock, telemetry }));
    expect(clock.sleeps).toEqual([2000]);
    expect(events.filter((e) => e.type === 'waited')).toEqual([{ type: 'waited', reason: 'retry_after', ms: 2000 }]);
    expect(events.find((e) => e.type === 'retrying')).toMatchObject({
      attempt: 1,
      waitMs: 2000,
      reason: 'rate_limited',
    });
    expect(events.at(-1)).toEqual({ type: 'end', attempts: 2, status: 200 });
  });

  it('holds every other call of the client during the pause, reported as shared_pause', async () => {
    const clock = steppingClock();
    const { events, telemetry } = recorder();
    const c = client({ clock, telemetry, maxRetries: 0 });
    server.script({ status: 503, headers: { 'retry-after': '5' }, body: '' });
    await expect(get(c)).rejects.toBeInstanceOf(InternalServerError);
    await get(c);
    expect(clock.sleeps).toEqual([5000]);
    expect(events.filter((e) => e.type === 'waited')).toEqual([{ type: 'waited', reason: 'shared_pause', ms: 5000 }]);
  });
});

describe('rule 2: after a pause, sending resumes at once when the fields show budget left', () => {
  it('a 429 burst with Retry-After 2 and 40 left: the retry and 10 more calls go after 2 s, not at the window end', async () => {
    const clock = steppingClock();
    const c = client({ clock });
    server.fallback = { status: 200, headers: budget(39, 58), body: '{"ok":true}' };
    await get(c); // the budget is known
    server.script({ status: 429, headers: { 'retry-after': '2', ...budget(40, 58) }, body: '' });
    await Promise.all([get(c), ...Array.from({ length: 10 }, () => get(c))]);
    expect(clock.sleeps).toEqual([2000]);
    expect(server.received).toHaveLength(13);
  });
});

describe('rule 3: no call waits longer than maxRetryAfter for anything the server imposed', () => {
  it('a 429 with Retry-After 120 fails at once with retryAfterMs; the next call fails at once too, not sent', async () => {
    const clock = steppingClock();
    const c = client({ clock, timeout: 2000 });
    server.script({ status: 429, headers: { 'retry-after': '120' }, body: '' });
    const first = (await get(c).catch((e: unknown) => e)) as RateLimitError;
    expect(first).toBeInstanceOf(RateLimitError);
    expect(first).toMatchObject({ retryAfterMs: 120_000, attempts: 1, status: 429 });
    clock.advance(1000);
    const second = (await get(c).catch((e: unknown) => e)) as RateLimitError;
    expect(second).toBeInstanceOf(RateLimitError);
    expect(second.retryAfterMs).toBe(119_000);
    expect(second.requestId).toBeUndefined();
    expect(second.message).toMatch(
      /was not sent: .*Retry-After.*119000 ms is longer than rateLimit\.maxRetryAfter \(60000 ms\)/,
    );
    expect(server.received).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a 503 with Retry-After of a day under maxRetryAfter 1000 fails at once as InternalServerError with retryAfterMs', async () => {
    const clock = steppingClock();
    server.script({ status: 503, headers: { 'retry-after': '86400' }, body: '' });
    const error = (await get(client({ clock, rateLimit: { maxRetryAfter: 1000 } })).catch(
      (e: unknown) => e,
    )) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 86_400_000, attempts: 1 });
    expect(server.received).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('an exhausted window ending in a day: later calls fail at once with the wait, nothing sent', async () => {
    const clock = steppingClock();
    const c = client({ clock });
    server.script({ status: 200, headers: budget(0, 86_400, 600), body: '{"ok":true}' });
    await get(c);
    const error = (await get(c).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(86_400_000);
    expect(error.message).toMatch(/rate budget for this window is spent/);
    expect(server.received).toHaveLength(1);
  });

  it.each([
    ['a reset of 1e300', { 'ratelimit-remaining': '0', 'ratelimit-limit': '5', 'ratelimit-reset': '1e300' }],
    [
      'a reset of 9999999999 (epoch, year 2286)',
      { 'ratelimit-remaining': '0', 'ratelimit-limit': '5', 'ratelimit-reset': '9999999999' },
    ],
    ['a limit of 0 for a day', { 'ratelimit-remaining': '0', 'ratelimit-limit': '0', 'ratelimit-reset': '86400' }],
    ['400 nines of Retry-After on a 200', { 'retry-after': '9'.repeat(400) }],
    ['Retry-After in the year 9999', { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }],
  ])('%s: no call hangs and no timer overflows', async (_name, headers) => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const c = client();
      server.script({ status: 200, headers, body: '{"ok":true}' });
      await get(c);
      const started = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => get(c)));
      expect(Date.now() - started).toBeLessThan(1000);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RateLimitError);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('rule 4: an AbortSignal stops any wait at once; close() settles every call within a second', () => {
  it('aborting a call that waits out a 30 s pause rejects it at once with AbortedError', async () => {
    const c = client();
    server.script({ status: 503, headers: { 'retry-after': '30' }, body: '' });
    const controller = new AbortController();
    const call = get(c, { signal: controller.signal }).catch((e: unknown) => e);
    while (server.received.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    controller.abort(new Error('user gave up'));
    const error = await call;
    expect(Date.now() - started).toBeLessThan(100);
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
  });

  it('an AbortSignal.timeout() passed as signal stops a wait and is reported as TimeoutError', async () => {
    const c = client();
    server.script({ status: 503, headers: { 'retry-after': '30' }, body: '' });
    const started = Date.now();
    const error = await get(c, { signal: AbortSignal.timeout(300) }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toMatch(/timeout of the AbortSignal/);
  });

  it('close() rejects calls waiting for a pause with AbortedError and resolves at once', async () => {
    const c = new PartnerClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    server.script({ status: 503, headers: { 'retry-after': '30' }, body: '' });
    await get(c).catch(() => undefined);
    const waiting = Array.from({ length: 5 }, () => get(c).catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await c.close();
    const errors = await Promise.all(waiting);
    expect(Date.now() - started).toBeLessThan(1000);
    for (const error of errors) {
      expect(error).toBeInstanceOf(AbortedError);
      expect((error as AbortedError).message).toMatch(/client\.close\(\) was called; nothing was sent/);
    }
    expect(server.received).toHaveLength(1);
  });
});
