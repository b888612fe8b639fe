/**
 * The attempt's time limit and the caller's signal, over a real HTTP port: one timer per attempt,
 * cleared once the body is read (or the attempt fails), whichever path the signal takes to fetch
 * (straight to the global fetch, or through ky when partners' hooks or fetch are given).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbortedError, NotFoundError, RedirectError, TimeoutError, type PartnerClient } from '../../src/index.js';
import { useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_attempt-limits-0123456789';
/** A limit no other timer in the process uses, to tell the attempt's timer apart. */
const LIMIT = 4_321;

const { server, client } = useScriptedServer(KEY, { maxRetries: 0, rateLimit: false });
/** Sends the headers and the start of a body, then nothing more until the client goes away. */
let stalling: Server;
let stallingUrl: string;

beforeAll(async () => {
  stalling = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items":[');
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
});
afterAll(async () => {
  stalling.closeAllConnections();
  await new Promise((resolve) => stalling.close(resolve));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const get = (c: PartnerClient, options?: { signal?: AbortSignal; timeout?: number }) =>
  c.request({ method: 'GET', path: '/thing' }, options);

/** Every timer armed with `ms`, and whether it was cleared or fired. */
function watchTimers(ms: number) {
  const armed = new Map<unknown, 'live' | 'cleared' | 'fired'>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    fn: (...a: unknown[]) => void,
    delay?: number,
    ...args: unknown[]
  ) => {
    if (delay !== ms) return realSet(fn, delay, ...args);
    const handle: unknown = realSet(
      (...a: unknown[]) => {
        armed.set(handle, 'fired');
        fn(...a);
      },
      delay,
      ...args,
    );
    armed.set(handle, 'live');
    return handle;
  }) as typeof setTimeout);
  vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((handle?: Parameters<typeof clearTimeout>[0]) => {
    if (armed.get(handle) === 'live') armed.set(handle, 'cleared');
    realClear(handle);
  }) as typeof clearTimeout);
  return {
    get armed() {
      return armed.size;
    },
    get live() {
      return [...armed.values()].filter((s) => s === 'live').length;
    },
    get fired() {
      return [...armed.values()].filter((s) => s === 'fired').length;
    },
  };
}

describe('no attempt timer outlives its attempt', () => {
  it('is cleared after a success, an error status and a redirect', async () => {
    const timers = watchTimers(LIMIT);
    const c = client({ timeout: LIMIT });
    for (let i = 0; i < 5; i++) await get(c);
    server.script({ status: 404, body: '{"error":{"code":"not_found","message":"no"}}' });
    await expect(get(c)).rejects.toBeInstanceOf(NotFoundError);
    server.script({ status: 302, headers: { location: 'http://elsewhere.test/' } });
    await expect(get(c)).rejects.toBeInstanceOf(RedirectError);
    expect(timers.armed).toBe(7);
    expect(timers.live).toBe(0);
    expect(timers.fired).toBe(0);
  });

  it('is cleared when the caller aborts a request in flight, which fails at once with AbortedError', async () => {
    const timers = watchTimers(LIMIT);
    // The server would answer after 10 s and the time limit is 4.3 s: settling well before either is "at once".
    server.script({ delayMs: 10_000 });
    const controller = new AbortController();
    const pending = get(client({ timeout: LIMIT }), { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    const abortedAt = Date.now();
    controller.abort(new Error('caller gave up'));
    const error = await pending;
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toEqual(new Error('caller gave up'));
    // Stopped in flight, not while waiting to be sent: the message says which.
    expect((error as AbortedError).message).toBe(
      "The call GET /partner/v1/thing was aborted by the caller's AbortSignal.",
    );
    expect(Date.now() - abortedAt).toBeLessThan(3_000);
    expect(timers.armed).toBe(1);
    expect(timers.live).toBe(0);
  });
});

describe('no attempt signal outlives its attempt', () => {
  it('is aborted once the attempt is over (a success, an error status, a redirect), and the caller’s is not', async () => {
    const seen: AbortSignal[] = [];
    const c = client({
      fetch: (input, init) => {
        const request = input as Request;
        seen.push(request.signal);
        return fetch(request, init);
      },
    });
    const caller = new AbortController();
    const answer = await get(c, { signal: caller.signal });
    expect(answer).toBeDefined();
    server.script({ status: 404, body: '{"error":{"code":"not_found","message":"no"}}' });
    await expect(get(c, { signal: caller.signal })).rejects.toBeInstanceOf(NotFoundError);
    server.script({ status: 302, headers: { location: 'http://elsewhere.test/' } });
    await expect(get(c)).rejects.toBeInstanceOf(RedirectError);
    expect(seen).toHaveLength(3);
    // Each signal fetch saw is joined to the attempt's own: released once the attempt is over.
    expect(seen.map((signal) => signal.aborted)).toEqual([true, true, true]);
    expect(caller.signal.aborted).toBe(false);
    // A later call on the same caller's signal goes through.
    await expect(get(c, { signal: caller.signal })).resolves.toBeDefined();
  });
});

describe('the time limit covers the whole response', () => {
  it('a body that stops coming is a TimeoutError after the limit, on the default path', async () => {
    const c = client({ baseUrl: stallingUrl, timeout: 150 });
    const started = Date.now();
    const error = await get(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('within 150 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('the same through a partner fetch that honours only the request’s own signal', async () => {
    const seen: AbortSignal[] = [];
    const c = client({
      baseUrl: stallingUrl,
      timeout: 150,
      fetch: (input, init) => {
        const request = input as Request;
        seen.push(request.signal);
        return fetch(request, { ...init, signal: request.signal });
      },
    });
    const error = await get(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.aborted).toBe(true);
  });

  it('with hooks, a hook sees the attempt’s signal on the request, and the limit still applies', async () => {
    const signals: AbortSignal[] = [];
    const c = client({
      baseUrl: stallingUrl,
      timeout: 150,
      hooks: { beforeRequest: [(request) => void signals.push(request.signal)] },
    });
    await expect(get(c)).rejects.toBeInstanceOf(TimeoutError);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it.each([
    ['the default path', {}],
    ['a partner fetch', { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) }],
  ])('an AbortSignal.timeout() of the caller is a TimeoutError, on %s', async (_name, extra) => {
    const c = client({ baseUrl: stallingUrl, timeout: LIMIT, ...extra });
    const error = await get(c, { signal: AbortSignal.timeout(100) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('AbortSignal passed as signal');
  });
});

describe('the query string', () => {
  it('is what ky’s searchParams would send: undefined left out, lists and booleans as given', async () => {
    const c = client();
    const query = { status: 'confirmed,pending', acknowledged: false, limit: 5, cursor: undefined, note: 'a b&c=d/é' };
    await c.request({ method: 'GET', path: '/thing', query });
    const expected = new URLSearchParams({
      status: 'confirmed,pending',
      acknowledged: 'false',
      limit: '5',
      note: 'a b&c=d/é',
    }).toString();
    expect(server.received[0]!.url).toBe(`/partner/v1/thing?${expected}`);
  });

  it('is left off when the query is empty', async () => {
    await client().request({ method: 'GET', path: '/thing', query: {} });
    expect(server.received[0]!.url).toBe('/partner/v1/thing');
  });
});
