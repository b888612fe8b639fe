/**
 * A repeated query parameter is refused (the contract: never silently ignored), and one that takes
 * several values says how to send them: `status=a&status=b` is what openapi-fetch and `qs` send for
 * an array, and the form the service reads is `status=a,b`.
 */
import { describe, expect, it } from 'vitest';
import { openSandbox, TRANSPORTS } from './support/harness.js';

describe.each(TRANSPORTS)('a repeated query parameter (%s)', (transport) => {
  it('that takes several values is refused, showing the comma-separated form, which works', async () => {
    const h = await openSandbox(transport, { seed: 4 });
    h.sandbox.populate(h.key, { locations: 2, reservationsPerLocation: 30 });
    const repeated = await h.call('GET', '/reservations?status=pending&status=confirmed');
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toMatchObject({ code: 'validation_error', field: 'status' });
    const message: string = repeated.body.error.message;
    expect(message).toContain('comma-separated: status=pending,confirmed');
    const form = /status=[\w,]+/.exec(message.slice(message.indexOf('comma-separated')))?.[0] as string;
    const listed = await h.call('GET', `/reservations?${form}&limit=200`);
    expect(listed.status).toBe(200);
    expect(new Set(listed.body.items.map((b: { status: string }) => b.status))).toEqual(
      new Set(['pending', 'confirmed']),
    );
  });

  it('that takes one value says to give it once', async () => {
    const h = await openSandbox(transport);
    const repeated = await h.call('GET', '/reservations?limit=5&limit=6');
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toMatchObject({ field: 'limit', message: 'limit was given 2 times; give it once.' });
  });
});
