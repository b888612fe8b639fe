import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, RateLimiterClosedError, type RateLimiter } from '../../src/core/rate-limit/limiter.js';
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
    console.info(`concurrency 16, 120/10 s, 600 calls: ${elapsed} ms, ideal ${ideal} ms, ratio ${(elapsed / ideal).toFixed(4)}, 429s ${server.limited}`);
    expect(server.limited).toBe(0);
    expect(elapsed / ideal).toBeLessThanOrEqual(1.03);
    // The whole budget of every window was used.
    expect(server.perWindow).toEqual([120, 120, 120, 120, 120]);
  });

  it('keeps zero 429 and the full budget when the caller feeds each response in from inside the task', async () => {
    const server = createFakeServer({ limit: 40, windowMs: 10_000, latencyMs: () => 5 + Math.random() * 30 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    // As the transport does: observe the response, then return a plain object carrying its headers.
    const call = () =>
      l.schedule(async () => {
        const response = await server.request();
        l.observe(response);
        return { status: response.status, headers: response.headers, body: '' };
      });
    await drive(runJob(200, 16, call));
    expect(server.limited).toBe(0);
    expect(server.perWindow).toEqual([40, 40, 40, 40, 40]);
  });

  it('keeps zero 429 when the caller feeds each response in after the call returns', async () => {
    const server = createFakeServer({ limit: 40, windowMs: 10_000, latencyMs: () => 5 + Math.random() * 30 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    const call = async () => {
      const { response } = await l.schedule(async () => ({ response: await server.request() }));
      l.observe(response);
    };
    const started = Date.now();
    await drive(runJob(200, 16, call));
    expect(server.limited).toBe(0);
    expect(Date.now() - started).toBeLessThanOrEqual(idealMs(200, 40, 10_000, 16, 70) * 1.03);
  });

  it('follows a limit raised in the middle of a window as soon as a response shows it', async () => {
    const server = createFakeServer({ limit: 40, windowMs: 10_000, latencyMs: 10 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    let changed = false;
    const call = async () => {
      await l.schedule(() => server.request());
      if (!changed && server.ok >= 10) {
        changed = true;
        server.setLimit(80);
      }
    };
    await drive(runJob(240, 16, call));
    expect(server.limited).toBe(0);
    expect(server.perWindow).toEqual([80, 80, 80]);
  });

  it('follows a limit lowered in the middle of a window without a 429', async () => {
    const server = createFakeServer({ limit: 80, windowMs: 10_000, latencyMs: 10 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    let changed = false;
    const call = async () => {
      await l.schedule(() => server.request());
      if (!changed && server.ok >= 10) {
        changed = true;
        server.setLimit(40);
      }
    };
    await drive(runJob(120, 16, call));
    expect(server.limited).toBe(0);
    expect(server.perWindow).toEqual([40, 40, 40]);
    expect(l.state?.limit).toBe(40);
  });

  it('pauses every send until a 429 Retry-After has passed', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 10 });
    server.failNext(1, '3');
    const l = (limiter = createRateLimiter({ id: 'test' }));
    const results = drive(Promise.all(Array.from({ length: 10 }, () => l.schedule(() => server.request()))));
    const responses = await results;
    expect(responses.map((r) => r.status)).toEqual([429, 200, 200, 200, 200, 200, 200, 200, 200, 200]);
    // The 429 reached the server first; nothing else arrived until 3 s after its answer came back.
    const [first, second] = server.arrivals;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(3000 + 10);
    expect(server.limited).toBe(1);
  });

  it('pauses every send after a 429 in the middle of a run, then goes on with no further 429', async () => {
    const server = createFakeServer({ limit: 100, windowMs: 10_000, latencyMs: 10 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    let failedAt: number | undefined;
    const call = async () => {
      const response = await l.schedule(() => server.request());
      if (server.ok >= 30 && failedAt === undefined) {
        failedAt = Date.now();
        server.failNext(1, '5');
      }
      return response;
    };
    await drive(runJob(60, 4, call));
    expect(server.limited).toBe(1);
    const limited = server.arrivals.find((a) => a.status === 429)!;
    // Requests already on their way may land, but none is sent between the 429's answer and its Retry-After.
    const during = server.arrivals.filter((a) => a.at > limited.at + 20 && a.at < limited.at + 10 + 5000);
    expect(during).toEqual([]);
  });

  it('stops waiting at once when the caller aborts a queued call, and the task never runs', async () => {
    const server = createFakeServer({ limit: 2, windowMs: 10_000, latencyMs: 10 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    await drive(Promise.all([l.schedule(() => server.request()), l.schedule(() => server.request())]));
    const controller = new AbortController();
    const task = vi.fn(() => server.request());
    const queued = l.schedule(task, controller.signal);
    queued.catch(() => {});
    await vi.advanceTimersByTimeAsync(1000);
    const abortedAt = Date.now();
    controller.abort(new Error('caller gave up'));
    await expect(queued).rejects.toThrow('caller gave up');
    expect(Date.now()).toBe(abortedAt);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(task).not.toHaveBeenCalled();
    // The abandoned place went back: the next window still allows two calls, and no 429.
    await drive(Promise.all([l.schedule(() => server.request()), l.schedule(() => server.request())]));
    expect(server.perWindow).toEqual([2, 2]);
    expect(server.limited).toBe(0);
  });

  it('rejects at once with the reason when the signal is already aborted', async () => {
    const l = (limiter = createRateLimiter({ id: 'test' }));
    const task = vi.fn(async () => 1);
    await expect(l.schedule(task, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    expect(task).not.toHaveBeenCalled();
  });

  it('logs how long and why a call waited, at info for a second or more', async () => {
    const server = createFakeServer({ limit: 3, windowMs: 10_000, latencyMs: 10 });
    const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    const logger = {
      debug: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'debug', message, ...(fields ? { fields } : {}) }),
      info: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'info', message, ...(fields ? { fields } : {}) }),
    };
    const l = (limiter = createRateLimiter({ id: 'fp_1234', logger }));
    await drive(Promise.all(Array.from({ length: 4 }, () => l.schedule(() => server.request()))));
    const waitedForBudget = lines.find((line) => line.message === 'rate limit: request waited' && line.fields?.reason === 'budget');
    expect(waitedForBudget?.level).toBe('info');
    expect(waitedForBudget?.fields?.waitedMs).toBeGreaterThanOrEqual(9000);
    expect(lines.some((line) => line.fields?.reason === 'first-response')).toBe(true);
    expect(lines.every((line) => line.fields?.limiter === 'fp_1234')).toBe(true);
  });

  it('reports the latest budget it has seen', async () => {
    const server = createFakeServer({ limit: 5, windowMs: 10_000, latencyMs: 10 });
    const l = (limiter = createRateLimiter({ id: 'test' }));
    expect(l.state).toBeUndefined();
    await drive(l.schedule(() => server.request()));
    expect(l.state).toMatchObject({ limit: 5, remaining: 4, windowMs: 10_000 });
  });

  it('rejects queued calls and later calls once closed, and closes only once', async () => {
    const server = createFakeServer({ limit: 1, windowMs: 10_000, latencyMs: 10 });
    const l = createRateLimiter({ id: 'test' });
    await drive(l.schedule(() => server.request()));
    const queued = l.schedule(() => server.request());
    queued.catch(() => {});
    await vi.advanceTimersByTimeAsync(100);
    await drive(Promise.all([l.close(), l.close()]));
    await expect(queued).rejects.toBeInstanceOf(RateLimiterClosedError);
    await expect(l.schedule(() => server.request())).rejects.toBeInstanceOf(RateLimiterClosedError);
    expect(server.arrivals).toHaveLength(1);
  });

  it('creates no timers before the first call', () => {
    const before = vi.getTimerCount();
    limiter = createRateLimiter({ id: 'test' });
    expect(vi.getTimerCount()).toBe(before);
  });
});
