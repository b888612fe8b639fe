/**
 * The control API over a real port, with plain fetch: faults with the same shapes as
 * sandbox.faults, keys, populate, reset, and its protection. (Clock and change log: changes.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { control } from './support/control.js';
import { openSandbox } from './support/harness.js';

describe('the control API (http)', () => {
  it('lists its endpoints at GET /_sandbox', async () => {
    const h = await openSandbox('http');
    const r = await control(h.baseUrl, 'GET', '');
    expect(r.status).toBe(200);
    const paths = (r.body.endpoints as string[]).map((e) => e.split('  ')[0]);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /_sandbox/clock',
        'POST /_sandbox/clock/advance',
        'POST /_sandbox/faults',
        'POST /_sandbox/faults/random',
        'DELETE /_sandbox/faults',
        'POST /_sandbox/keys',
        'POST /_sandbox/populate',
        'GET /_sandbox/changes',
        'GET /_sandbox/requests',
        'POST /_sandbox/reset',
      ]),
    );
  });

  it('pages through the request log at GET /_sandbox/requests, with headers and no key, control calls left out', async () => {
    const h = await openSandbox('http');
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await h.call('GET', '/summary', { headers: { traceparent } });
    await control(h.baseUrl, 'POST', '/faults', { body: { status: 503, path: '/partner/v1/settings' } });
    await h.call('GET', '/settings');
    await h.call('GET', '/nope', { key: null });
    const first = await control(h.baseUrl, 'GET', '/requests?limit=2');
    expect(first.status).toBe(200);
    expect(
      first.body.items.map((r: { seq: number; path: string; status: number }) => [r.seq, r.path, r.status]),
    ).toEqual([
      [1, '/partner/v1/summary', 200],
      [2, '/partner/v1/settings', 503],
    ]);
    expect(first.body.items[0].headers).toMatchObject({ traceparent, authorization: 'Bearer [redacted]' });
    expect(first.body.items[1]).toMatchObject({ fault: 'status 503', requestId: expect.stringMatching(/^req_/) });
    expect(first.body.next_after).toBe(2);
    const rest = await control(h.baseUrl, 'GET', '/requests?after=2');
    expect(rest.body).toEqual({
      items: [expect.objectContaining({ seq: 3, path: '/partner/v1/nope', status: 401 })],
      next_after: null,
    });
    expect(JSON.stringify([first.body, rest.body])).not.toContain(h.key);
    // The same entries as sandbox.requests, in the same order.
    expect([...first.body.items, ...rest.body.items]).toEqual(JSON.parse(JSON.stringify(h.sandbox.requests)));
    expect((await control(h.baseUrl, 'GET', '/requests?after=3')).body).toEqual({ items: [], next_after: null });
    for (const bad of ['limit=0', 'limit=1001', 'limit=ten', 'limit=1e2', 'limit=+5', 'after=-1', 'after=1&after=2']) {
      const refused = await control(h.baseUrl, 'GET', `/requests?${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error, bad).toMatchObject({
        code: 'validation_error',
        field: bad.split('=')[0],
        message: expect.stringMatching(/limit|after/),
      });
    }
    expect((await control(h.baseUrl, 'GET', '/requests?limit=1000')).body.items).toHaveLength(3);
    expect((await control(h.baseUrl, 'GET', '/requests?path=x')).body.error).toMatchObject({
      code: 'validation_error',
      field: 'path',
    });
  });

  it('keeps request numbers rising across a reset, and pages a log that has dropped its oldest entries', async () => {
    const h = await openSandbox('http', { requestLogSize: 3 });
    for (let i = 0; i < 5; i++) await h.call('GET', '/summary');
    const kept = await control(h.baseUrl, 'GET', '/requests');
    expect(kept.body.items.map((r: { seq: number }) => r.seq)).toEqual([3, 4, 5]);
    expect((await control(h.baseUrl, 'GET', '/requests?after=3&limit=1')).body).toMatchObject({
      items: [{ seq: 4 }],
      next_after: 4,
    });
    await control(h.baseUrl, 'POST', '/reset');
    expect((await control(h.baseUrl, 'GET', '/requests')).body.items).toEqual([]);
    await h.call('GET', '/summary', { key: null });
    expect(
      (await control(h.baseUrl, 'GET', '/requests?after=5')).body.items.map((r: { seq: number }) => r.seq),
    ).toEqual([6]);
  });

  it('queues faults with the fields of sandbox.faults.next(), exact path or pattern, and clears them', async () => {
    const h = await openSandbox('http');
    expect(
      await control(h.baseUrl, 'POST', '/faults', {
        body: { status: 503, times: 2, path: '/partner/v1/summary', headers: { 'Retry-After': '3' } },
      }),
    ).toMatchObject({ status: 201, body: { pending: 2 } });
    expect((await h.call('GET', '/settings')).status).toBe(200);
    const faulted = await h.call('GET', '/summary');
    expect([faulted.status, faulted.headers.get('retry-after'), faulted.body.error.code]).toEqual([
      503,
      '3',
      'unavailable',
    ]);
    expect((await control(h.baseUrl, 'GET', '/faults')).body).toEqual({ pending: 1 });
    await control(h.baseUrl, 'POST', '/faults', {
      body: { status: 502, body: 'html', pathPattern: '/partner/v1/locations/*', method: 'GET' },
    });
    await h.enroll('f-1');
    const html = await h.call('GET', '/locations/f-1');
    expect(html.status).toBe(502);
    expect(html.text).toMatch(/<html>/);
    // 'after': the request takes effect, then its answer is lost.
    await control(h.baseUrl, 'POST', '/faults', { body: { status: 500, when: 'after', method: 'POST' } });
    expect((await h.call('POST', '/locations/f-1/pause')).status).toBe(500);
    expect(h.sandbox.inspect.store(h.key, 'f-1')?.status).toBe('paused');
    expect(await control(h.baseUrl, 'DELETE', '/faults')).toEqual(
      expect.objectContaining({ status: 200, body: { pending: 0 } }),
    );
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('turns on random faults with the fields of sandbox.faults.random(), kinds by name or shape', async () => {
    const h = await openSandbox('http');
    expect(
      (
        await control(h.baseUrl, 'POST', '/faults/random', {
          body: {
            rate: 1,
            kinds: ['unavailable', { status: 504, body: 'empty' }],
            seed: 3,
            path: '/partner/v1/summary',
          },
        })
      ).status,
    ).toBe(200);
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) statuses.add((await h.call('GET', '/summary')).status);
    expect(statuses).toEqual(new Set([503, 504]));
    expect((await h.call('GET', '/settings')).status).toBe(200);
    await control(h.baseUrl, 'DELETE', '/faults');
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });

  it('refuses fault specs sandbox.faults would not take, naming the field', async () => {
    const h = await openSandbox('http');
    const cases: Array<[unknown, string]> = [
      [{ status: 99 }, 'status'],
      [{ status: 503, body: 'xml' }, 'body'],
      [{ hang: false }, 'hang'],
      [{ times: 0 }, 'times'],
      [{ when: 'during' }, 'when'],
      [{ pathPattern: '' }, 'pathPattern'],
      [{ pathPattern: '/a', pathFlags: 'i' }, 'pathFlags'],
      [{ path: '/a', pathPattern: '/a' }, 'pathPattern'],
      [{ status: 503, delay: 5 }, 'delay'],
      [{ headers: { 'Retry-After': 2 } }, 'headers.Retry-After'],
    ];
    for (const [body, field] of cases) {
      const r = await control(h.baseUrl, 'POST', '/faults', { body });
      expect([r.status, r.body.error.code, r.body.error.field], JSON.stringify(body)).toEqual([
        400,
        'validation_error',
        field,
      ]);
    }
    expect((await control(h.baseUrl, 'POST', '/faults/random', { body: { rate: 2 } })).body.error.field).toBe('rate');
    expect(
      (await control(h.baseUrl, 'POST', '/faults/random', { body: { rate: 0.5, kinds: ['meteor'] } })).body.error.field,
    ).toBe('kinds.0');
    expect((await control(h.baseUrl, 'GET', '/faults')).body).toEqual({ pending: 0 });
  });

  it('issues keys with the fields of sandbox.issueKey(): allow-list, own budget, shared account', async () => {
    const h = await openSandbox('http');
    const made = await control(h.baseUrl, 'POST', '/keys', { body: { allowIps: ['10.0.0.0/8'] } });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^crp_test_[0-9A-Za-z]{32}$/);
    expect((await h.call('GET', '/summary', { key: made.body.key })).body.error.code).toBe('forbidden_ip');
    const limited = (
      await control(h.baseUrl, 'POST', '/keys', { body: { rateLimit: { limit: 1, windowMs: 60_000 }, account: h.key } })
    ).body;
    expect(limited.account_id).toBe(h.sandbox.inspect.accountId(h.key));
    expect((await h.call('GET', '/summary', { key: limited.key })).status).toBe(200);
    expect((await h.call('GET', '/summary', { key: limited.key })).status).toBe(429);
    expect((await control(h.baseUrl, 'POST', '/keys', { body: { allowIps: ['300.1.1.1'] } })).body.error.field).toBe(
      'allowIps',
    );
    expect(
      (await control(h.baseUrl, 'POST', '/keys', { body: { account: 'crp_test_unknown' } })).body.error.field,
    ).toBe('account');
    expect(
      (await control(h.baseUrl, 'POST', '/keys', { body: { rateLimit: { limit: 0, windowMs: 1 } } })).body.error.field,
    ).toBe('rateLimit.limit');
  });

  it('populates the key’s account and resets the whole sandbox', async () => {
    const h = await openSandbox('http');
    const auth = { authorization: `Bearer ${h.key}` };
    const r = await control(h.baseUrl, 'POST', '/populate', {
      body: { locations: 3, reservationsPerLocation: 4, idPrefix: 'p-' },
      headers: auth,
    });
    expect(r).toMatchObject({
      status: 201,
      body: { locationIds: ['p-000001', 'p-000002', 'p-000003'], reservations: 12 },
    });
    expect((await h.call('GET', '/summary')).body.locations.total).toBe(3);
    expect((await control(h.baseUrl, 'POST', '/populate', { body: { locations: 1 } })).status).toBe(401);
    expect(
      (await control(h.baseUrl, 'POST', '/populate', { body: { locations: -1 }, headers: auth })).body.error.field,
    ).toBe('locations');
    // At most 2,000,000 bookings a call: refused before anything is made.
    const tooMany = await control(h.baseUrl, 'POST', '/populate', {
      body: { locations: 100_000, reservationsPerLocation: 21 },
      headers: auth,
    });
    expect(tooMany.body.error).toMatchObject({
      code: 'validation_error',
      field: 'reservationsPerLocation',
      message: expect.stringContaining('2,000,000'),
    });
    await control(h.baseUrl, 'POST', '/clock/advance', { body: { by_ms: 86_400_000 } });
    await control(h.baseUrl, 'POST', '/faults', { body: { status: 500, times: 3 } });
    const reset = await control(h.baseUrl, 'POST', '/reset');
    expect(reset).toMatchObject({ status: 200, body: { now: '2026-12-01T09:00:00.000Z' } });
    // Keys, data and faults are gone.
    expect((await h.call('GET', '/summary')).status).toBe(401);
    expect((await control(h.baseUrl, 'GET', '/faults')).body).toEqual({ pending: 0 });
    expect((await control(h.baseUrl, 'POST', '/reset', { body: { keep: true } })).body.error.field).toBe('keep');
  });
});

describe('the control API’s protection (http)', () => {
  it('off loopback, the sandbox will not serve without an admin token', async () => {
    await expect(createSandbox().listen(0, '0.0.0.0')).rejects.toThrow(/needs an admin token/);
    await expect(createSandbox().listen(0, '::')).rejects.toThrow(/adminToken/);
    const served = await createSandbox({ adminToken: 'tok' }).listen(0, '0.0.0.0');
    expect(served.host).toBe('0.0.0.0');
    await served.close();
  });

  it('with a token, every control call needs it, a crp_test_ key never opens it, and the service is unaffected', async () => {
    const h = await openSandbox('http', { adminToken: 'let-me-in' });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['GET', '/clock'],
      ['POST', '/clock/advance', { by_ms: 1 }],
      ['POST', '/faults', { status: 500 }],
      ['DELETE', '/faults'],
      ['POST', '/keys', {}],
      ['POST', '/populate', { locations: 1 }],
      ['GET', '/changes'],
      ['POST', '/reset'],
    ];
    for (const [method, path, body] of calls) {
      for (const headers of [
        {},
        { authorization: `Bearer ${h.key}` },
        { 'x-sandbox-admin-token': 'let-me-out', authorization: `Bearer ${h.key}` },
      ]) {
        const r = await control(h.baseUrl, method, path, { body, headers });
        expect([r.status, r.body.error.code], `${method} ${path} ${JSON.stringify(headers)}`).toEqual([
          401,
          'unauthorized',
        ]);
      }
    }
    expect(h.sandbox.faults.pending).toBe(0);
    expect(h.sandbox.clock.now().toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect((await h.call('GET', '/summary')).status).toBe(200);
    const ok = await control(h.baseUrl, 'POST', '/clock/advance', {
      body: { by_ms: 1000 },
      headers: { 'x-sandbox-admin-token': 'let-me-in' },
    });
    expect(ok).toMatchObject({ status: 200, body: { now: '2026-12-01T09:00:01.000Z' } });
  });

  it('caps control bodies like the service’s, with 413 in the error shape', async () => {
    const h = await openSandbox('http');
    const r = await control(h.baseUrl, 'POST', '/faults', {
      rawBody: JSON.stringify({ status: 500, headers: { x: 'y'.repeat(300_000) } }),
    });
    expect([r.status, r.body.error.code]).toEqual([413, 'payload_too_large']);
  });
});
