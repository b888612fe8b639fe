import { describe, expect, it } from 'vitest';
import { address, openSandbox, pageThrough, TRANSPORTS } from './support/harness.js';

describe.each(TRANSPORTS)('summary, billing, pricing and settings (%s)', (transport) => {
  it('summarises every store and booking of the account, generated at the simulated time in UTC', async () => {
    const h = await openSandbox(transport, { seed: 6, visitsPerWeek: 7 });
    await h.enroll('s-1');
    await h.enroll('s-2');
    await h.enroll('s-3', { address: address({ postal_code: '94110' }) });
    await h.call('POST', '/locations/s-2/pause');
    h.sandbox.clock.advance({ days: 20 });
    await h.call('POST', '/locations/s-1/terminate');
    const bookings = h.sandbox.inspect.reservations(h.key);
    const first = bookings[0];
    await h.call('POST', `/reservations/${first?.reservation_id}/acknowledge`, {
      body: { acknowledged_kind: 'acknowledged_self' },
    });
    const count = (s: string) => bookings.filter((b) => b.status === s).length;
    const r = await h.call('GET', '/summary');
    expect(r.body).toEqual({
      generated_at: '2026-12-21T09:00:00Z',
      locations: { total: 3, active: 1, paused: 1, terminated: 1, hours_missing: 1 },
      reservations: {
        pending: count('pending'),
        confirmed: count('confirmed'),
        completed: count('completed'),
        no_show: count('no_show'),
        unacknowledged: bookings.length - 1,
      },
      videos_published: h.sandbox.inspect.videos(h.key, 's-1').length,
    });
    expect(r.body.reservations.completed).toBeGreaterThan(0);
  });

  it('counts each store billing month from what happened in that UTC month', async () => {
    const h = await openSandbox(transport, { seed: 12, visitsPerWeek: 7, now: '2026-11-20T00:00:00Z' });
    await h.enroll('b-1');
    await h.enroll('b-2', { address: address({ line1: '2 Second St' }) });
    h.sandbox.clock.advance({ days: 30 });
    await h.enroll('b-3', { address: address({ line1: '3 Third St' }) }); // enrolled in December
    const rows = (await pageThrough(h, '/billing/monthly?month=2026-11', 1)) as Array<Record<string, unknown>>;
    const inNovember = (iso: string | null) => iso !== null && new Date(iso).toISOString().startsWith('2026-11');
    expect(rows.map((r) => r.partner_location_id)).toEqual(['b-1', 'b-2']);
    for (const row of rows) {
      const id = row.partner_location_id as string;
      const bookings = h.sandbox.inspect.reservations(h.key, id);
      expect(row).toEqual({
        partner_location_id: id,
        videos_published: h.sandbox.inspect.videos(h.key, id).filter((v) => inNovember(v.posted_at)).length,
        completed_visits: bookings.filter((b) => b.status === 'completed' && inNovember(b.visit_at)).length,
        no_shows: bookings.filter((b) => b.status === 'no_show' && inNovember(b.visit_at)).length,
      });
    }
    expect(rows.reduce((n, r) => n + (r.completed_visits as number), 0)).toBeGreaterThan(0);
    const december = (await pageThrough(h, '/billing/monthly?month=2026-12')) as Array<Record<string, unknown>>;
    expect(december.map((r) => r.partner_location_id)).toEqual(['b-1', 'b-2', 'b-3']);
  });

  it('refuses a missing or malformed billing month naming month', async () => {
    const h = await openSandbox(transport);
    for (const query of ['', '?month=2026-13', '?month=12-2026', '?month=2026-1']) {
      const r = await h.call('GET', `/billing/monthly${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'validation_error', field: 'month' });
    }
  });

  it('quotes a plan in the country currency, adding the partner surcharge', async () => {
    const h = await openSandbox(transport);
    const plain = await h.call('GET', '/pricing/quote?plan=growth&videos_per_month=4&country=US');
    expect(plain.body).toEqual({
      plan: 'growth',
      videos_per_month: 4,
      currency: 'USD',
      price_per_video_cents: 3900,
      surcharge_per_video_cents: 0,
      total_cents: 15600,
    });
    const put = await h.call('PUT', '/settings', { body: { surcharge_per_video_cents: 250 } });
    expect(put.body).toEqual({ surcharge_per_video_cents: 250, currency: 'USD' });
    const withSurcharge = await h.call('GET', '/pricing/quote?plan=starter&videos_per_month=10&country=GB');
    expect(withSurcharge.body).toMatchObject({
      currency: 'GBP',
      price_per_video_cents: 3900,
      surcharge_per_video_cents: 250,
      total_cents: 41500,
    });
  });

  it('refuses an unknown plan, a volume outside 1..100 and a bad country', async () => {
    const h = await openSandbox(transport);
    const field = async (q: string) => (await h.call('GET', `/pricing/quote?${q}`)).body.error?.field;
    expect(await field('plan=platinum&videos_per_month=4')).toBe('plan');
    expect(await field('plan=pro&videos_per_month=0')).toBe('videos_per_month');
    expect(await field('plan=pro&videos_per_month=101')).toBe('videos_per_month');
    expect(await field('videos_per_month=4')).toBe('plan');
    expect(await field('plan=pro&videos_per_month=4&country=usa')).toBe('country');
  });

  it('reads and sets the surcharge, refusing negative or fractional cents', async () => {
    const h = await openSandbox(transport);
    expect((await h.call('GET', '/settings')).body).toEqual({ surcharge_per_video_cents: 0, currency: 'USD' });
    expect((await h.call('PUT', '/settings', { body: { surcharge_per_video_cents: 120 } })).status).toBe(200);
    expect((await h.call('GET', '/settings')).body.surcharge_per_video_cents).toBe(120);
    for (const bad of [-1, 1.5, '100']) {
      const r = await h.call('PUT', '/settings', { body: { surcharge_per_video_cents: bad } });
      expect(r.body.error, String(bad)).toMatchObject({ code: 'validation_error', field: 'surcharge_per_video_cents' });
    }
    expect(
      (await h.call('PUT', '/settings', { body: { surcharge_per_video_cents: 1, currency: 'EUR' } })).body.error.field,
    ).toBe('currency');
  });
});

describe.each(TRANSPORTS)('the Date header (%s)', (transport) => {
  it('tells the simulated time on every answer, errors and faults included, as a real service tells its own', async () => {
    const h = await openSandbox(transport, { seed: 6, now: '2031-03-31T23:59:58Z' });
    const dateOf = (r: { headers: Headers }) => Date.parse(r.headers.get('date') ?? '');
    const summary = await h.call('GET', '/summary');
    expect(summary.headers.get('date')).toBe('Mon, 31 Mar 2031 23:59:58 GMT');
    h.sandbox.clock.advance({ days: 40 });
    expect(dateOf(await h.call('GET', '/locations/nope'))).toBe(Date.parse('2031-05-10T23:59:58Z'));
    h.sandbox.faults.next({ status: 503 });
    expect(dateOf(await h.call('GET', '/summary'))).toBe(Date.parse('2031-05-10T23:59:58Z'));
  });
});
