import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';

describe('populate, paging at scale and the request log', () => {
  it('creates 100,000 bookings in well under a few seconds and pages them over HTTP in O(page)', async () => {
    const sandbox = createSandbox({ seed: 3 });
    const key = sandbox.issueKey({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
    // CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
    const started = process.cpuUsage();
    const result = sandbox.populate(key, { locations: 1000, reservationsPerLocation: 100 });
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(2500);
    expect(result.reservations).toBe(100_000);
    expect(result.locationIds).toHaveLength(1000);

    const server = await sandbox.listen(0);
    try {
      const get = async (cursor: string | null) => {
        const t = performance.now();
        const r = await fetch(`${server.url}/partner/v1/reservations?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const body = (await r.json()) as { items: unknown[]; next_cursor: string | null };
        return { body, ms: performance.now() - t };
      };
      let page = await get(null);
      const early: number[] = [];
      for (let i = 0; i < 20; i++) {
        page = await get(page.body.next_cursor);
        early.push(page.ms);
      }
      // Jump near the end by paging the last store only is not the same list; page on to the end instead.
      let count = 21 * 200;
      const late: number[] = [];
      while (page.body.next_cursor) {
        page = await get(page.body.next_cursor);
        count += page.body.items.length;
        if (count > 95_000) late.push(page.ms);
      }
      expect(count).toBe(100_000);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
      expect(median(late)).toBeLessThan(median(early) * 3 + 2);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('logs each request with method, path, status, request id and time, bounded in size', async () => {
    let now = 5_000;
    const sandbox = createSandbox({ requestLogSize: 3, rateLimitClock: () => now });
    const key = sandbox.issueKey();
    const call = (path: string) =>
      sandbox.handle(new Request(`https://x.test/partner/v1${path}`, { headers: { authorization: `Bearer ${key}` } }));
    const first = await call('/summary');
    now += 10;
    await call('/nope');
    await call('/summary');
    await call('/settings');
    expect(sandbox.requests).toHaveLength(3);
    expect(sandbox.requests[0]).toEqual({
      seq: 2,
      method: 'GET',
      path: '/partner/v1/nope',
      status: 404,
      requestId: expect.stringMatching(/^req_/),
      at: 5_010,
      serviceStatus: 404,
      headers: { authorization: 'Bearer [redacted]' },
    });
    expect(sandbox.requests.map((r) => r.path)).toEqual([
      '/partner/v1/nope',
      '/partner/v1/summary',
      '/partner/v1/settings',
    ]);
    expect(first.headers.get('x-request-id')).not.toBe(sandbox.requests[0]?.requestId);
    expect(sandbox.requestCount({ status: 200 })).toBe(2);
    expect(sandbox.requestCount({ path: /summary/ })).toBe(1);
  });

  it('forgets everything on reset', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    sandbox.populate(key, { locations: 2 });
    sandbox.clock.advance({ days: 3 });
    sandbox.faults.next({ status: 500 });
    sandbox.reset();
    expect(sandbox.clock.now().toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(sandbox.faults.pending).toBe(0);
    const r = await sandbox.handle(
      new Request('https://x.test/partner/v1/summary', { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(r.status).toBe(401);
  });
});
