import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError, type PartnerClient, type Reservation } from '../../src/index.js';
import { TRANSPORTS, address, startSdkEnv, weekly, type SdkEnv } from '../helpers/sdk-env.js';
import { collect } from '../helpers/collect.js';

describe.each(TRANSPORTS)('reservations over %s', (kind) => {
  let env: SdkEnv;
  let client: PartnerClient;
  let all: Reservation[];
  beforeAll(async () => {
    env = await startSdkEnv(kind, { visitsPerWeek: 5 });
    client = env.client();
    for (let i = 0; i < 6; i++) {
      await client.locations.enroll({
        partner_location_id: `r-${i}`,
        name: `Store ${i}`,
        address: address(i),
        hours: { weekly },
      });
    }
    env.sandbox.clock.advance({ days: 21 });
    all = await collect(client.reservations.list({ limit: 200 }));
  });
  afterAll(() => env.close());

  it('walks every booking of every store with for await, across many pages', async () => {
    expect(all.length).toBeGreaterThan(30);
    const small = await collect(client.reservations.list({ limit: 7 }));
    expect(small.map((r) => r.reservation_id)).toEqual(all.map((r) => r.reservation_id));
    expect(new Set(small.map((r) => r.reservation_id)).size).toBe(small.length);
  });

  it('returns bookings with the contract fields and no contact details', () => {
    const confirmed = all.find((r) => r.status === 'confirmed' || r.status === 'completed');
    expect(confirmed).toBeDefined();
    expect(confirmed?.visit_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(confirmed?.creator).toEqual({
      handle: expect.any(String),
      platforms: expect.any(Array),
      follower_count: expect.any(Number),
    });
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/email|phone/i);
  });

  it('filters by several statuses', async () => {
    const done = await collect(client.reservations.list({ status: ['completed', 'no_show'], limit: 50 }));
    expect(done.length).toBe(all.filter((r) => r.status === 'completed' || r.status === 'no_show').length);
    expect(done.every((r) => r.status === 'completed' || r.status === 'no_show')).toBe(true);
  });

  it('filters by store and by visit date', async () => {
    const oneStore = await collect(client.reservations.list({ partner_location_id: 'r-2' }));
    expect(oneStore.length).toBeGreaterThan(0);
    expect(oneStore.every((r) => r.partner_location_id === 'r-2')).toBe(true);
    const dated = all.filter((r) => r.visit_at);
    const day = dated[0]!.visit_at!.slice(0, 10);
    const thatDay = await collect(client.reservations.list({ from: day, to: day }));
    expect(thatDay.map((r) => r.reservation_id).sort()).toEqual(
      dated
        .filter((r) => r.visit_at!.slice(0, 10) === day)
        .map((r) => r.reservation_id)
        .sort(),
    );
  });

  it('acknowledges a booking, repeatably, and filters by acknowledged', async () => {
    const target = all[0]!;
    const first = await client.reservations.acknowledge(target.reservation_id, 'forwarded_to_manager');
    expect(first.acknowledged_kind).toBe('forwarded_to_manager');
    const second = await client.reservations.acknowledge(target.reservation_id, 'acknowledged_self');
    expect(second.acknowledged_kind).toBe('acknowledged_self');
    expect(second.status).toBe(target.status);
    const acked = await collect(client.reservations.list({ acknowledged: true }));
    expect(acked.map((r) => r.reservation_id)).toEqual([target.reservation_id]);
    const unacked = await collect(client.reservations.list({ acknowledged: false }));
    expect(unacked.length).toBe(all.length - 1);
  });

  it('throws NotFoundError when acknowledging an unknown booking', async () => {
    await expect(client.reservations.acknowledge('res_missing', 'acknowledged_self')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('lists one store’s bookings', async () => {
    const mine = await collect(client.reservations.listForLocation('r-1', { limit: 3 }));
    expect(mine.map((r) => r.reservation_id)).toEqual(
      all.filter((r) => r.partner_location_id === 'r-1').map((r) => r.reservation_id),
    );
  });

  it('gives the first page when awaited, with a cursor to resume from', async () => {
    const page = await client.reservations.list({ limit: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.hasNextPage()).toBe(true);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await page.getNextPage();
    expect(next.items[0]!.reservation_id).toBe(all[5]!.reservation_id);
    const resumed = await collect(client.reservations.list({ limit: 5, cursor: page.nextCursor! }));
    expect(resumed.map((r) => r.reservation_id)).toEqual(all.slice(5).map((r) => r.reservation_id));
  });

  it('iterates pages with pages(), ending on a null cursor', async () => {
    const sizes: number[] = [];
    let last: string | null = 'unset';
    for await (const page of client.reservations.list({ limit: 10 }).pages()) {
      sizes.push(page.items.length);
      last = page.nextCursor;
    }
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(all.length);
    expect(last).toBeNull();
  });

  it('prefetches the next page when asked and still yields every item once in order', async () => {
    const prefetching = env.client({ prefetchPages: true });
    const items = await collect(prefetching.reservations.list({ limit: 4 }));
    expect(items.map((r) => r.reservation_id)).toEqual(all.map((r) => r.reservation_id));
  });

  it('refuses a limit outside 1..200 before any request', async () => {
    const before = env.sandbox.requests.length;
    await expect(client.reservations.list({ limit: 201 })).rejects.toMatchObject({
      code: 'validation_error',
      field: 'limit',
    });
    await expect(collect(client.reservations.list({ limit: 0 }))).rejects.toBeInstanceOf(ValidationError);
    expect(env.sandbox.requests.length).toBe(before);
  });

  it('refuses a malformed date and an unknown status before sending', async () => {
    await expect(client.reservations.list({ from: '2026-13-01' })).rejects.toMatchObject({ field: 'from' });
    // @ts-expect-error: not a booking status
    await expect(client.reservations.list({ status: ['lost'] })).rejects.toMatchObject({ code: 'validation_error' });
  });
});
