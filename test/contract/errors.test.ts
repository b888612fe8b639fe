import { describe, expect, it } from 'vitest';
import { openSandbox, TRANSPORTS } from './support/harness.js';

describe.each(TRANSPORTS)('errors and input checks (%s)', (transport) => {
  it('answers 404 not_found for an unknown path', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('GET', '/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      error: { code: 'not_found', message: expect.stringContaining('/partner/v1/nothing-here') },
    });
  });

  it('answers 405 method_not_allowed with Allow for a known path and a wrong method', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('DELETE', '/locations/abc');
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe('method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET, PATCH');
    expect((await h.call('GET', '/reservations/x/acknowledge')).status).toBe(405);
  });

  it('refuses an unknown query parameter with 400 naming it', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('GET', '/reservations?limit=5&sort=desc');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'validation_error', field: 'sort' });
    const onSummary = await h.call('GET', '/summary?verbose=1');
    expect(onSummary.body.error.field).toBe('verbose');
  });

  it('refuses malformed JSON with 400 and field (body)', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('POST', '/locations', { rawBody: '{"partner_location_id": "a",' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'validation_error', field: '(body)' });
  });

  it('refuses a missing body where one is required with field (body)', async () => {
    const h = await openSandbox(transport);
    const r = await h.call('PUT', '/settings');
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe('(body)');
  });

  it('names the dotted path of an invalid field and the key of an unknown one', async () => {
    const h = await openSandbox(transport);
    const bad = await h.enroll('e-1', {
      address: { line1: '1 A St', city: 'X', state: '', postal_code: '94105', country: 'US' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('address.state');
    expect(bad.body.error.message).toMatch(/address\.state must not be empty/);
    const unknown = await h.enroll('e-2', { foo: 1 });
    expect(unknown.body.error).toMatchObject({ code: 'validation_error', field: 'foo' });
  });

  it('refuses a body on an endpoint that takes none', async () => {
    const h = await openSandbox(transport);
    await h.enroll('nb-1');
    expect((await h.call('POST', '/locations/nb-1/pause', { body: {} })).status).toBe(200);
    const r = await h.call('POST', '/locations/nb-1/pause', { body: { reason: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe('reason');
  });
});
