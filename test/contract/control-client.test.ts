/** The typed control client against a sandbox on a real port, as a test in another process would use it. */
import { describe, expect, it } from 'vitest';
import { SandboxControl, SandboxControlError } from '../../src/testing/index.js';
import { openSandbox } from './support/harness.js';

describe('SandboxControl', () => {
  it('drives clock, keys, populate, faults, changes, the request log and reset', async () => {
    const h = await openSandbox('http', { visitsPerWeek: 20 });
    const control = new SandboxControl({ baseUrl: `${h.baseUrl}/` });
    expect((await control.now()).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    const key = await control.issueKey();
    expect(key).toMatch(/^crp_test_/);
    expect(await control.populate(key, { locations: 2, reservationsPerLocation: 3 })).toEqual({
      locationIds: ['pop-000001', 'pop-000002'],
      reservations: 6,
    });
    expect((await control.advance({ days: 1, hours: 2 })).toISOString()).toBe('2026-12-02T11:00:00.000Z');
    expect((await control.advance({ to: new Date('2026-12-05T00:00:00Z') })).toISOString()).toBe(
      '2026-12-05T00:00:00.000Z',
    );

    const all = [];
    let after = 0;
    for (;;) {
      const page = await control.changes(key, { after, limit: 5 });
      all.push(...page.items);
      if (page.nextAfter === null) break;
      after = page.nextAfter;
    }
    expect(all).toEqual(h.sandbox.inspect.changes(key));
    expect(all.length).toBeGreaterThan(6);

    expect(await control.faults.next({ status: 503, times: 2, pathPattern: '/partner/v1/sum*' })).toBe(2);
    expect((await h.call('GET', '/summary', { key })).status).toBe(503);
    expect(await control.faults.pending()).toBe(1);
    await control.faults.clear();
    await control.faults.random({ rate: 1, kinds: ['html'], path: '/partner/v1/settings' });
    expect((await h.call('GET', '/settings', { key })).status).toBe(502);
    await control.faults.clear();
    const requests = await control.requests({ limit: 1 });
    expect(requests.items).toEqual([
      expect.objectContaining({
        seq: 1,
        path: '/partner/v1/summary',
        status: 503,
        headers: expect.objectContaining({ authorization: 'Bearer [redacted]' }),
      }),
    ]);
    expect(requests.nextAfter).toBe(1);
    expect((await control.requests({ after: 1 })).items.map((r) => [r.path, r.status])).toEqual([
      ['/partner/v1/settings', 502],
    ]);
    await control.reset();
    expect((await h.call('GET', '/summary', { key })).status).toBe(401);
  });

  it('throws SandboxControlError with the status, code and field of a refusal', async () => {
    const h = await openSandbox('http', { adminToken: 'secret' });
    const anonymous = new SandboxControl({ baseUrl: h.baseUrl });
    const refused = await anonymous.now().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxControlError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'unauthorized',
      message: expect.stringMatching(/^GET \/_sandbox\/clock failed with 401: .*X-Sandbox-Admin-Token/),
    });
    const admin = new SandboxControl({ baseUrl: h.baseUrl, adminToken: 'secret' });
    expect((await admin.now()).getTime()).toBe(h.sandbox.clock.now().getTime());
    const bad = await admin.faults.next({ status: 42 }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: 'validation_error', field: 'status' });
    const past = await admin.advance({ to: '2020-01-01T00:00:00Z' }).catch((e: unknown) => e);
    expect(past).toMatchObject({ status: 400, field: 'to' });
  });
});
