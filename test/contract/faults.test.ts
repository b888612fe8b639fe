import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { address, openSandbox, TRANSPORTS } from './support/harness.js';

describe.each(TRANSPORTS)('faults on demand (%s)', (transport) => {
  it('answers a 500 fault with internal_error and a support reference, then serves normally', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ status: 500 });
    const r = await h.call('GET', '/summary');
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('internal_error');
    expect(r.body.error.message).toMatch(/\(ref [0-9A-Z]{8}\)$/);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('applies a fault the given number of times, only to its path and method', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ status: 503, times: 2, path: '/partner/v1/reservations', method: 'GET' });
    expect((await h.call('GET', '/summary')).status).toBe(200);
    const first = await h.call('GET', '/reservations');
    expect(first.status).toBe(503);
    expect(first.body.error.code).toBe('unavailable');
    expect((await h.call('GET', '/reservations')).status).toBe(503);
    expect((await h.call('GET', '/reservations')).status).toBe(200);
    h.sandbox.faults.next({ status: 502, path: /\/locations\/[^/]+$/ });
    expect((await h.call('GET', '/summary')).status).toBe(200);
    expect((await h.call('GET', '/locations/any')).status).toBe(502);
  });

  it('serves proxy-style HTML and empty bodies when asked', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ status: 502, body: 'html' });
    const html = await h.call('GET', '/summary');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toMatch(/<h1>502 Bad Gateway<\/h1>/);
    h.sandbox.faults.next({ status: 503, body: 'empty', headers: { 'Retry-After': '3' } });
    const empty = await h.call('GET', '/summary');
    expect(empty.status).toBe(503);
    expect(empty.text).toBe('');
    expect(empty.headers.get('retry-after')).toBe('3');
    expect(empty.headers.get('content-type')).toBeNull();
  });

  it('evaluates faults before authentication', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ status: 429 });
    const r = await h.call('GET', '/summary', { key: null });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBe('1');
  });

  it('lets the request take effect before replacing its answer when the fault comes after', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ status: 500, when: 'after', path: '/partner/v1/locations' });
    const lost = await h.enroll('after-1');
    expect(lost.status).toBe(500);
    const retry = await h.enroll('after-1');
    expect(retry.status).toBe(200); // the first attempt had enrolled it
    expect(h.sandbox.inspect.stores(h.key)).toHaveLength(1);
    expect(h.sandbox.requestCount({ method: 'POST', path: '/partner/v1/locations', effective: true })).toBe(2);
    expect(h.sandbox.requests.at(-2)).toMatchObject({ status: 500, serviceStatus: 201, fault: 'status 500' });
  });

  it('drops the connection on a reset fault, after the effect when asked', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sr-1', { plan: { name: 'growth', videos_per_month: 4 } });
    const batch = (await h.call('GET', '/locations/sr-1/creator-samples')).body;
    h.sandbox.faults.next({ reset: true, when: 'after', method: 'POST' });
    await expect(
      h.call('POST', `/locations/sr-1/creator-samples/${batch.batch_id}/decision`, { body: { decision: 'new_batch' } }),
    ).rejects.toThrow(TypeError);
    expect(h.sandbox.inspect.sampleBatches(h.key, 'sr-1')).toHaveLength(2);
    expect(h.sandbox.requests.at(-1)).toMatchObject({ status: 0, serviceStatus: 200, fault: 'reset' });
    h.sandbox.faults.next({ reset: true });
    await expect(h.call('GET', '/summary')).rejects.toThrow(TypeError);
  });

  it('hangs until the client gives up', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ hang: true });
    const started = performance.now();
    await expect(h.call('GET', '/summary', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('delays and then serves normally', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ delayMs: 30 });
    const started = performance.now();
    const r = await h.call('GET', '/summary');
    expect(r.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('serves 200 with truncated JSON for a malformed fault', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.next({ malformed: true });
    const r = await h.call('GET', '/summary');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('injects random faults at the given rate from a seed, until cleared', async () => {
    const h = await openSandbox(transport);
    h.sandbox.faults.random({ rate: 0.3, kinds: ['internal_error', 'unavailable'], seed: 4 });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await h.call('GET', '/summary')).status);
    const failed = statuses.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(8);
    expect(failed.length).toBeLessThan(30);
    expect(new Set(failed)).toEqual(new Set([500, 503]));
    h.sandbox.faults.clear();
    expect((await h.call('GET', '/summary')).status).toBe(200);
    expect(h.sandbox.faults.pending).toBe(0);
  });
});

describe('faults in process', () => {
  const request = (key: string, signal?: AbortSignal) =>
    new Request('https://x.test/partner/v1/locations', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify({ partner_location_id: 'x', name: 'X', address: address() }),
      ...(signal ? { signal } : {}),
    });

  it('rejects handle() with a fetch-like TypeError on reset', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    sandbox.faults.next({ reset: true });
    await expect(sandbox.handle(request(key))).rejects.toThrow(new TypeError('fetch failed'));
  });

  it('settles a hanging handle() only when the request signal aborts', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    sandbox.faults.next({ hang: true, when: 'after' });
    const controller = new AbortController();
    let settled = false;
    const pending = sandbox.handle(request(key, controller.signal)).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    expect(sandbox.inspect.stores(key)).toHaveLength(1); // took effect, then hung
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('refuses a fault with a times count below 1, and a random rate outside 0..1', () => {
    const sandbox = createSandbox();
    expect(() => sandbox.faults.next({ status: 500, times: 0 })).toThrow(RangeError);
    expect(() => sandbox.faults.random({ rate: 2 })).toThrow(RangeError);
  });
});
