import { describe, expect, it } from 'vitest';
import { openSandbox, pageThrough, TRANSPORTS, type Harness } from './support/harness.js';

interface Booking {
  reservation_id: string;
  partner_location_id: string;
  status: string;
  visit_at: string | null;
  acknowledged_kind: string | null;
}

async function withBookings(transport: (typeof TRANSPORTS)[number]): Promise<Harness> {
  const h = await openSandbox(transport, { seed: 21 });
  h.sandbox.populate(h.key, { locations: 3, reservationsPerLocation: 120 });
  return h;
}

describe.each(TRANSPORTS)('lists (%s)', (transport) => {
  it('pages 50 items by default and refuses a limit outside 1..200 naming limit', async () => {
    const h = await withBookings(transport);
    const first = await h.call('GET', '/reservations');
    expect(first.body.items).toHaveLength(50);
    expect(typeof first.body.next_cursor).toBe('string');
    expect((await h.call('GET', '/reservations?limit=200')).body.items).toHaveLength(200);
    for (const limit of ['0', '201', 'ten', '-1', '2.5']) {
      const r = await h.call('GET', `/reservations?limit=${limit}`);
      expect(r.status, limit).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'validation_error', field: 'limit' });
    }
  });

  it('pages through every item once, in order, ending with a null next_cursor', async () => {
    const h = await withBookings(transport);
    const all = (await pageThrough(h, '/reservations', 70)) as Booking[];
    expect(all.map((b) => b.reservation_id)).toEqual(
      h.sandbox.inspect.reservations(h.key).map((b) => b.reservation_id),
    );
    const last = await h.call('GET', '/locations/pop-000002/reservations?limit=200');
    expect(last.body.items).toHaveLength(120);
    expect(last.body.next_cursor).toBeNull();
  });

  it('neither skips nor repeats items when bookings arrive while a client pages', async () => {
    const h = await openSandbox(transport, { seed: 3, visitsPerWeek: 20 });
    await h.enroll('w-1');
    h.sandbox.clock.advance({ days: 7 });
    const before = h.sandbox.inspect.reservations(h.key, 'w-1').length;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: { body: { items: Booking[]; next_cursor: string | null } } = await h.call(
        'GET',
        `/locations/w-1/reservations?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...r.body.items.map((b) => b.reservation_id));
      cursor = r.body.next_cursor;
      if (++pages < 4) h.sandbox.clock.advance({ days: 1 }); // new bookings arrive mid-way
    } while (cursor);
    const everything = h.sandbox.inspect.reservations(h.key, 'w-1').map((b) => b.reservation_id);
    expect(everything.length).toBeGreaterThan(before + 3);
    expect(seen).toEqual(everything);
  });

  it('refuses a cursor that does not decode, or that belongs to another list or other filters', async () => {
    const h = await withBookings(transport);
    const garbage = await h.call('GET', '/reservations?cursor=not-a-cursor');
    expect(garbage.body.error).toMatchObject({ code: 'validation_error', field: 'cursor' });
    const cursor = (await h.call('GET', '/reservations?status=completed&limit=5')).body.next_cursor as string;
    expect((await h.call('GET', `/reservations?status=completed&limit=5&cursor=${cursor}`)).status).toBe(200);
    const otherFilters = await h.call('GET', `/reservations?status=pending&cursor=${cursor}`);
    expect(otherFilters.body.error.field).toBe('cursor');
    const otherList = await h.call('GET', `/locations/pop-000001/reservations?cursor=${cursor}`);
    expect(otherList.body.error.field).toBe('cursor');
  });

  it('filters bookings by status list, acknowledgement and store', async () => {
    const h = await withBookings(transport);
    const everything = h.sandbox.inspect.reservations(h.key);
    const open = (await pageThrough(h, '/reservations?status=pending,confirmed')) as Booking[];
    expect(open.map((b) => b.reservation_id)).toEqual(
      everything.filter((b) => b.status === 'pending' || b.status === 'confirmed').map((b) => b.reservation_id),
    );
    expect(open.length).toBeGreaterThan(0);

    const target = everything[7];
    await h.call('POST', `/reservations/${target?.reservation_id}/acknowledge`, {
      body: { acknowledged_kind: 'acknowledged_self' },
    });
    const acked = (await pageThrough(h, '/reservations?acknowledged=true')) as Booking[];
    expect(acked.map((b) => b.reservation_id)).toEqual([target?.reservation_id]);
    expect((await pageThrough(h, '/reservations?acknowledged=false')).length).toBe(everything.length - 1);

    const one = (await pageThrough(h, '/reservations?partner_location_id=pop-000003')) as Booking[];
    expect(one).toHaveLength(120);
    expect(one.every((b) => b.partner_location_id === 'pop-000003')).toBe(true);
    expect((await h.call('GET', '/reservations?partner_location_id=unknown')).body).toEqual({
      items: [],
      next_cursor: null,
    });

    expect((await h.call('GET', '/reservations?status=done')).body.error.field).toBe('status');
    expect((await h.call('GET', '/reservations?acknowledged=yes')).body.error.field).toBe('acknowledged');
  });

  it('filters by the visit local date inclusively, never matching bookings without a visit', async () => {
    const h = await withBookings(transport);
    const everything = h.sandbox.inspect.reservations(h.key);
    const day = (b: { visit_at: string | null }) => b.visit_at?.slice(0, 10);
    const expected = everything.filter(
      (b) => b.visit_at !== null && (day(b) as string) >= '2026-11-20' && (day(b) as string) <= '2026-11-25',
    );
    const got = (await pageThrough(h, '/reservations?from=2026-11-20&to=2026-11-25')) as Booking[];
    expect(got.map((b) => b.reservation_id)).toEqual(expected.map((b) => b.reservation_id));
    expect(got.length).toBeGreaterThan(10);
    const from = (await pageThrough(h, '/reservations?from=2026-12-01')) as Booking[];
    expect(from.every((b) => b.visit_at !== null && (day(b) as string) >= '2026-12-01')).toBe(true);
    expect((await h.call('GET', '/reservations?from=2026-13-01')).body.error.field).toBe('from');
    expect((await h.call('GET', '/reservations?to=yesterday')).body.error.field).toBe('to');
  });
});
