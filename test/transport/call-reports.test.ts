/**
 * What a call tells the partner besides its result, over a real HTTP port on an injected clock:
 * the durations and statuses telemetry and the debug log see, the exact errors of a call that was
 * not sent, an empty success, and a success the SDK cannot read.
 */
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  RateLimitError,
  UnexpectedResponseError,
  type CallObserver,
  type PartnerClient,
} from '../../src/index.js';
import { steppingClock, useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_callreports0001';
const { server, client } = useScriptedServer(KEY);
const get = (c: PartnerClient, options = {}) => c.request({ method: 'GET', path: '/thing' }, options);

/** Telemetry and a debug logger that keep what they are told. */
function watch() {
  const ends: Parameters<NonNullable<CallObserver['end']>>[0][] = [];
  const attempts: Parameters<NonNullable<CallObserver['attemptEnd']>>[0][] = [];
  const logs: [string, Record<string, unknown>][] = [];
  return {
    ends,
    attempts,
    logs,
    options: {
      telemetry: {
        startCall: (): CallObserver => ({ attemptEnd: (a) => void attempts.push(a), end: (e) => void ends.push(e) }),
      },
      logger: {
        debug: (message: string, data: Record<string, unknown>) => void logs.push([message, data]),
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      },
    },
  };
}

describe('durations and statuses, on the client clock', () => {
  it('a call that waited a 503 Retry-After of 7 s lasted 7,000 ms; each attempt 0 ms; the statuses are the responses’', async () => {
    const clock = steppingClock();
    const seen = watch();
    server.script(
      { status: 503, headers: { 'retry-after': '7', 'x-request-id': 'req-a' }, body: '' },
      { status: 200, headers: { 'x-request-id': 'req-b' }, body: '{"ok":true}' },
    );
    await get(client({ clock, ...seen.options }));
    expect(seen.ends).toEqual([
      expect.objectContaining({ attempts: 2, durationMs: 7000, status: 200, requestId: 'req-b' }),
    ]);
    expect(seen.attempts.map((a) => [a.attempt, a.status, a.durationMs])).toEqual([
      [1, 503, 0],
      [2, 200, 0],
    ]);
    expect(seen.attempts[0]).toMatchObject({ requestId: 'req-a', error: expect.any(Error) });
    expect(seen.attempts[1]).not.toHaveProperty('error');
    const responses = seen.logs.filter(([message]) => message === 'partner-sdk: response').map(([, data]) => data);
    expect(responses).toEqual([
      { method: 'GET', path: '/partner/v1/thing', status: 503, requestId: 'req-a', ms: 0 },
      { method: 'GET', path: '/partner/v1/thing', status: 200, requestId: 'req-b', ms: 0 },
    ]);
  });

  it('a failed call reports its duration and no status when nothing answered', async () => {
    const clock = steppingClock();
    const seen = watch();
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const error = await get(
      client({ clock, maxRetries: 1, fetch: () => Promise.reject(refused), ...seen.options }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(seen.ends).toHaveLength(1);
    expect(seen.ends[0]).toMatchObject({ attempts: 2, durationMs: clock.sleeps[0], error });
    expect(seen.ends[0]).not.toHaveProperty('status');
    expect(seen.attempts).toHaveLength(2);
    expect(seen.attempts.every((a) => !('status' in a))).toBe(true);
  });
});

describe('a Retry-After against rateLimit.maxRetryAfter', () => {
  it('a wait of exactly maxRetryAfter is waited', async () => {
    const clock = steppingClock();
    server.script({ status: 503, headers: { 'retry-after': '2' }, body: '' });
    await expect(get(client({ clock, rateLimit: { maxRetryAfter: 2000 } }))).resolves.toEqual({ ok: true });
    expect(clock.sleeps).toEqual([2000]);
  });

  it('a longer wait for the budget is a RateLimitError (rate_limited) that says why, with nothing sent', async () => {
    const clock = steppingClock();
    const c = client({ clock, rateLimit: { maxRetryAfter: 1000 } });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: '' });
    await get(c).catch(() => undefined);
    const before = server.received.length;
    const error = (await get(c).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 30000 });
    expect(error.message).toBe(
      'The call GET /partner/v1/thing was not sent: the service asked this key to pause (Retry-After), and the wait of 30000 ms is longer than rateLimit.maxRetryAfter (1000 ms). Try again after retryAfterMs, or raise maxRetryAfter.',
    );
    expect(server.received.length).toBe(before);
  });
});

describe('calls stopped while they wait to be sent', () => {
  it('client.close() settles a waiting call with an AbortedError that says so', async () => {
    const c = client({ rateLimit: { maxRetryAfter: 60_000 } });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: '' });
    await get(c, { maxRetries: 0 }).catch(() => undefined);
    const waiting = get(c).catch((e: unknown) => e);
    await c.close();
    const error = (await waiting) as AbortedError;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe(
      'The call GET /partner/v1/thing was waiting to be sent when client.close() was called; nothing was sent.',
    );
    expect(error.request).toEqual({ method: 'GET', path: '/partner/v1/thing' });
  });

  it('the caller’s signal stops a waiting call, and the message says it was waiting', async () => {
    const c = client({ rateLimit: { maxRetryAfter: 60_000 } });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: '' });
    await get(c, { maxRetries: 0 }).catch(() => undefined);
    const controller = new AbortController();
    const waiting = get(c, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = (await waiting) as AbortedError;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe("The call GET /partner/v1/thing was aborted by the caller's AbortSignal while waiting.");
  });

  it('a reason that is itself an SDK error (another call’s 401) stays the cause, not the waiting call’s error', async () => {
    const c = client({ rateLimit: { maxRetryAfter: 60_000 } });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: '' });
    await get(c, { maxRetries: 0 }).catch(() => undefined);
    const before = server.received.length;
    const controller = new AbortController();
    const waiting = get(c, { signal: controller.signal }).catch((e: unknown) => e);
    const elsewhere = new AuthenticationError({ status: 401, code: 'unauthorized', message: 'key refused' });
    controller.abort(elsewhere);
    const error = (await waiting) as AbortedError;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.cause).toBe(elsewhere);
    expect(error.message).toBe("The call GET /partner/v1/thing was aborted by the caller's AbortSignal while waiting.");
    expect(server.received.length).toBe(before);
  });
});

describe('a failure inside the SDK', () => {
  it('is an UnexpectedResponseError that says so, with what failed as its cause', async () => {
    const broken = new TypeError('the clock broke');
    // A retry's back-off sleeps on the client's clock (a 503 without Retry-After: no pause of the key's gate).
    const clock = { ...steppingClock(), sleep: () => Promise.reject(broken) };
    server.script({ status: 503, body: '' }, { status: 200, body: '{"ok":true}' });
    const error = (await get(client({ clock })).catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toBe('The call GET /partner/v1/thing failed inside the SDK.');
    expect(error.cause).toBe(broken);
  });

  it('a clock that fails while the key is paused fails the calls waiting on it, with what failed as cause', async () => {
    const broken = new TypeError('the clock broke');
    // A Retry-After pauses the key's gate, which waits for its end on the client's clock.
    const clock = { ...steppingClock(), sleep: () => Promise.reject(broken) };
    const c = client({ clock, rateLimit: { maxRetryAfter: 60_000 } });
    server.script({ status: 503, headers: { 'retry-after': '5' }, body: '' }, { status: 200, body: '{"ok":true}' });
    const first = get(c).catch((e: unknown) => e);
    const second = get(c).catch((e: unknown) => e);
    const errors = await Promise.race([
      Promise.all([first, second]),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(errors).not.toBe('still waiting');
    for (const error of errors as UnexpectedResponseError[]) {
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toBe('The call GET /partner/v1/thing failed inside the SDK.');
      expect(error.cause).toBe(broken);
    }
    expect(server.received.length).toBe(1);
  });

  it('after the caller’s abort, is the AbortedError of that abort', async () => {
    const controller = new AbortController();
    const clock = {
      ...steppingClock(),
      sleep: () => {
        controller.abort(new Error('caller gave up'));
        return Promise.reject(new TypeError('the clock broke'));
      },
    };
    server.script({ status: 503, body: '' }, { status: 200, body: '{"ok":true}' });
    const error = (await get(client({ clock }), { signal: controller.signal }).catch(
      (e: unknown) => e,
    )) as AbortedError;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe("The call GET /partner/v1/thing was aborted by the caller's AbortSignal while waiting.");
    expect(error.cause).toEqual(new Error('caller gave up'));
  });
});

describe('successes', () => {
  it('an empty success (204) resolves to undefined', async () => {
    server.script({ status: 204, body: '' });
    await expect(get(client())).resolves.toBeUndefined();
  });

  it('a success the SDK cannot read names the field and what to do, with the request id', async () => {
    server.script({
      status: 200,
      headers: { 'x-request-id': 'req-odd' },
      body: JSON.stringify({ partner_location_id: 7 }),
    });
    const error = (await client()
      .locations.get('store-1')
      .catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 200, requestId: 'req-odd' });
    expect(error.message).toBe(
      'The response to GET /partner/v1/locations/store-1 lacks a field the SDK needs or has it in an unexpected form: partner_location_id. This SDK version may not match the service; please report it with the request id.',
    );
  });

  it('a success whose body is not an object names the body', async () => {
    server.script({ status: 200, body: '[]' });
    const error = (await client()
      .locations.get('store-1')
      .catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error.message).toContain('in an unexpected form: (body).');
  });
});
