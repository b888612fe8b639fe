import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { openSandbox, TRANSPORTS } from './support/harness.js';

describe.each(TRANSPORTS)('authentication and keys (%s)', (transport) => {
  it('refuses a request without a key with 401 unauthorized, a JSON body and a request id', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('GET', '/summary', { key: null });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
    expect(r.body.error.message).toMatch(/Authorization: Bearer/);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('refuses a key it did not issue, and a live key, with 401 unauthorized', async () => {
    const h = await openSandbox(transport);
    const unknown = await h.call('GET', '/summary', { key: 'crp_test_notissuedbythissandbox000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('unauthorized');
    const live = await h.call('GET', '/summary', { key: 'crp_live_abcdef' });
    expect(live.status).toBe(401);
    expect(live.body.error.message).toMatch(/live key/);
  });

  it('accepts a crp_test_ key it issued', async () => {
    const h = await openSandbox(transport);
    expect(h.key).toMatch(/^crp_test_[0-9A-Za-z]{32}$/);
    const r = await h.call('GET', '/summary');
    expect(r.status).toBe(200);
  });

  it('gives each key its own account unless it joins an existing one', async () => {
    const h = await openSandbox(transport);
    const other = h.sandbox.issueKey();
    const colleague = h.sandbox.issueKey({ account: h.key });
    expect((await h.enroll('shared-1')).status).toBe(201);
    expect((await h.call('GET', '/locations/shared-1', { key: colleague })).status).toBe(200);
    const stranger = await h.call('GET', '/locations/shared-1', { key: other });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('not_found');
    expect(h.sandbox.inspect.accountId(colleague)).toBe(h.sandbox.inspect.accountId(h.key));
  });

  it('answers 403 forbidden_ip to a caller outside the key allow-list', async () => {
    const h = await openSandbox(transport, {}, { allowIps: ['10.0.0.0/8', '2001:db8::/32'] });
    const r = await h.call('GET', '/summary');
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden_ip');
    expect(r.body.error.message).toContain('127.0.0.1');
  });

  it('lets a caller inside the allow-list through', async () => {
    const h = await openSandbox(transport, {}, { allowIps: ['127.0.0.1/32'] });
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });
});

describe.each(TRANSPORTS)('the request log (%s)', (transport) => {
  it("keeps each request's headers as received, with the key and any admin token redacted", async () => {
    const h = await openSandbox(transport);
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await h.call('GET', '/summary', {
      headers: { traceparent, 'x-partner-note': 'hello', 'x-sandbox-admin-token': 'admin-secret' },
    });
    await h.call('GET', '/settings', { key: `${h.key}-wrong` });
    await h.call('GET', '/settings', { key: null, headers: { authorization: h.key } });
    // A first word that is not a known scheme may be the key itself: nothing of it is kept.
    await h.call('GET', '/settings', {
      key: null,
      headers: { authorization: `${h.key} Bearer trailing`, 'proxy-authorization': 'Basic dXNlcjpwYXNz' },
    });
    const [ok, wrong, schemeless, keyFirst] = h.sandbox.requests;
    expect(ok?.headers).toMatchObject({
      traceparent,
      'x-partner-note': 'hello',
      authorization: 'Bearer [redacted]',
      'x-sandbox-admin-token': '[redacted]',
    });
    expect(wrong).toMatchObject({ status: 401, headers: { authorization: 'Bearer [redacted]' } });
    expect(schemeless).toMatchObject({ status: 401, headers: { authorization: '[redacted]' } });
    expect(keyFirst).toMatchObject({
      status: 401,
      headers: { authorization: '[redacted]', 'proxy-authorization': 'Basic [redacted]' },
    });
    expect(Object.keys(ok?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
    const log = JSON.stringify(h.sandbox.requests);
    expect(log).not.toContain(h.key);
    expect(log).not.toContain('admin-secret');
    expect(log).not.toContain('dXNlcjpwYXNz');
    // requestCount filters on the same log.
    expect(h.sandbox.requestCount({ method: 'get', path: '/partner/v1/settings' })).toBe(3);
    expect(h.sandbox.requestCount({ method: 'POST' })).toBe(0);
    expect(h.sandbox.requestCount({ path: /summary$/, status: 200 })).toBe(1);
    expect(h.sandbox.requestCount({ status: (s) => s >= 400 })).toBe(3);
    expect(h.sandbox.requestCount({ effective: true })).toBe(1);
    expect(h.sandbox.requestCount({ effective: false, method: 'GET' })).toBe(3);
  });
});

describe('IP allow-lists, in-process', () => {
  const call = (sandbox: ReturnType<typeof createSandbox>, key: string, remoteAddress?: string) =>
    sandbox.handle(
      new Request('https://x.test/partner/v1/summary', { headers: { authorization: `Bearer ${key}` } }),
      remoteAddress === undefined ? {} : { remoteAddress },
    );

  it('matches IPv6 addresses and ranges, and counts an IPv4-mapped IPv6 address as IPv4', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey({ allowIps: ['192.168.1.0/24', '2001:db8:abcd::/48', '::1'] });
    expect((await call(sandbox, key, '192.168.1.77')).status).toBe(200);
    expect((await call(sandbox, key, '::ffff:192.168.1.77')).status).toBe(200);
    expect((await call(sandbox, key, '192.168.2.1')).status).toBe(403);
    expect((await call(sandbox, key, '2001:db8:abcd:12::5')).status).toBe(200);
    expect((await call(sandbox, key, '2001:db8:abce::5')).status).toBe(403);
    expect((await call(sandbox, key, '::1')).status).toBe(200);
    expect((await call(sandbox, key, '::2')).status).toBe(403);
  });

  it('uses callerAddress for in-process requests that name no address', async () => {
    const sandbox = createSandbox({ callerAddress: '203.0.113.9' });
    const allowed = sandbox.issueKey({ allowIps: ['203.0.113.0/24'] });
    const refused = sandbox.issueKey({ allowIps: ['127.0.0.1'] });
    expect((await call(sandbox, allowed)).status).toBe(200);
    expect((await call(sandbox, refused)).status).toBe(403);
  });

  it('refuses to issue a key with more than 100 entries or an invalid entry', () => {
    const sandbox = createSandbox();
    const many = Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`);
    expect(() => sandbox.issueKey({ allowIps: many })).toThrow(/at most 100/);
    expect(() => sandbox.issueKey({ allowIps: many.slice(0, 100) })).not.toThrow();
    for (const bad of ['10.0.0.256', '10.0.0.0/33', 'example.com', '2001:db8::/129', '1::2::3']) {
      expect(() => sandbox.issueKey({ allowIps: [bad] }), bad).toThrow(/allowIps entry/);
    }
  });

  it('never shows a key in its state views or request log', () => {
    const sandbox = createSandbox({ seed: 7 });
    const key = sandbox.issueKey();
    const state = JSON.stringify(sandbox.inspect.stores(key)) + JSON.stringify(sandbox.requests);
    expect(state).not.toContain(key);
  });
});
