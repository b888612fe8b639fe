import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { address, openSandbox, pageThrough, TRANSPORTS } from './support/harness.js';
import { intlOffset, parseZoned, toMinutes } from './support/time.js';

const DAY = 86_400_000;
const BOOKING_FIELDS = [
  'acknowledged_kind',
  'created_at',
  'creator',
  'party_size',
  'partner_location_id',
  'reservation_id',
  'status',
  'time_zone',
  'visit_at',
].sort();

interface Booking {
  reservation_id: string;
  partner_location_id: string;
  status: string;
  visit_at: string | null;
  time_zone: string;
  created_at: string;
  creator: { handle: string; platforms: string[]; follower_count: number };
  acknowledged_kind: string | null;
}

/** Enroll `n` stores straight through the in-process handler (fast set-up for simulation tests). */
async function enrollMany(sandbox: Sandbox, key: string, n: number, extra: Record<string, unknown> = {}) {
  for (let i = 1; i <= n; i++) {
    const body = {
      partner_location_id: `s-${i}`,
      name: `S ${i}`,
      address: address({ line1: `${i} Market St`, postal_code: `9410${(i % 9) + 1}` }),
      ...extra,
    };
    const r = await sandbox.handle(
      new Request('https://x.test/partner/v1/locations', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    if (r.status !== 201) throw new Error(await r.text());
  }
}

describe.each(TRANSPORTS)('bookings over simulated time (%s)', (transport) => {
  it('creates bookings in the contract shape, with invited creators and no contact details', async () => {
    const h = await openSandbox(transport, { seed: 5, visitsPerWeek: 7 });
    await h.enroll('b-1', { contact: { name: 'Manager', email: 'm@example.com', phone: '+1 555' } });
    h.sandbox.clock.advance({ days: 14 });
    const items = (await pageThrough(h, '/reservations')) as Booking[];
    expect(items.length).toBeGreaterThan(2);
    for (const b of items) {
      expect(Object.keys(b).sort()).toEqual(BOOKING_FIELDS);
      expect(Object.keys(b.creator).sort()).toEqual(['follower_count', 'handle', 'platforms']);
      // The pool holds one hostile handle (=sum.plates) so CSV escaping is exercised; the rest are @name.word.
      expect(b.creator.handle).toMatch(/^[@=][a-z]+\.[a-z]+$/);
      expect(b.creator.platforms.every((p) => ['instagram', 'tiktok', 'youtube', 'xiaohongshu'].includes(p))).toBe(
        true,
      );
      expect(b.time_zone).toBe('America/Los_Angeles');
      expect(b.acknowledged_kind).toBeNull();
      expect(b.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    const everything =
      JSON.stringify(items) +
      (await h.call('GET', '/locations/b-1/creators')).text +
      (await h.call('GET', '/locations/b-1/content')).text;
    expect(everything).not.toMatch(/email|phone|@example\.com|\+1 555/);
  });

  it('confirms visits inside opening hours, 2 to 10 days ahead, with the store offset computed for its zone', async () => {
    const h = await openSandbox(transport, { seed: 11, visitsPerWeek: 14 });
    const weekly = {
      tue: [{ open: '11:30', close: '14:00' }],
      fri: [{ open: '18:00', close: '23:00' }],
      sat: [{ open: '10:00', close: '22:00' }],
    };
    await h.enroll('ny-1', { address: address({ state: 'NY', postal_code: '10001' }), hours: { weekly } });
    h.sandbox.clock.advance({ days: 10 });
    const visited = ((await pageThrough(h, '/reservations')) as Booking[]).filter((b) => b.visit_at !== null);
    expect(visited.length).toBeGreaterThan(5);
    for (const b of visited) {
      const visit = parseZoned(b.visit_at as string);
      expect(b.time_zone).toBe('America/New_York');
      expect(visit.offset).toBe(intlOffset('America/New_York', visit.instant));
      const spans = weekly[visit.weekday as keyof typeof weekly];
      expect(spans, `${b.visit_at} falls on a closed day`).toBeDefined();
      expect(spans?.some((s) => visit.minutes >= toMinutes(s.open) && visit.minutes < toMinutes(s.close))).toBe(true);
      const lead = visit.instant - Date.parse(b.created_at);
      expect(lead).toBeGreaterThan(1 * DAY);
      expect(lead).toBeLessThan(12 * DAY);
    }
  });

  it('writes the right UTC offset on both sides of a daylight-saving change', async () => {
    const h = await openSandbox(transport, { seed: 2, visitsPerWeek: 20, now: '2027-03-06T18:00:00Z' });
    await h.enroll('la-1', {
      hours: {
        weekly: Object.fromEntries(
          ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ open: '09:00', close: '21:00' }]]),
        ),
      },
    });
    h.sandbox.clock.advance({ days: 8 });
    const offsets = new Set<string>();
    for (const b of (await pageThrough(h, '/reservations')) as Booking[]) {
      if (!b.visit_at) continue;
      const visit = parseZoned(b.visit_at);
      expect(visit.offset, b.visit_at).toBe(intlOffset('America/Los_Angeles', visit.instant));
      expect(visit.minutes).toBeGreaterThanOrEqual(9 * 60);
      offsets.add(visit.offset);
    }
    expect([...offsets].sort()).toEqual(['-07:00', '-08:00']);
  });

  it('posts a video 1 to 5 days after each completed visit, and lists creators from acceptance', async () => {
    const h = await openSandbox(transport, { seed: 8, visitsPerWeek: 10 });
    await h.enroll('v-1');
    h.sandbox.clock.advance({ days: 30 });
    const bookings = new Map(
      ((await pageThrough(h, '/locations/v-1/reservations')) as Booking[]).map((b) => [b.reservation_id, b]),
    );
    const videos = (await pageThrough(h, '/locations/v-1/content')) as Array<{
      video_id: string;
      reservation_id: string;
      url: string;
      platform: string;
      posted_at: string;
    }>;
    expect(videos.length).toBeGreaterThan(3);
    for (const v of videos) {
      expect(Object.keys(v).sort()).toEqual(['platform', 'posted_at', 'reservation_id', 'url', 'video_id']);
      const booking = bookings.get(v.reservation_id);
      expect(booking?.status).toBe('completed');
      expect(booking?.creator.platforms).toContain(v.platform);
      expect(v.url).toMatch(/^https:\/\//);
      const delay = Date.parse(v.posted_at) - Date.parse(booking?.visit_at ?? '');
      expect(delay).toBeGreaterThanOrEqual(DAY - 1000);
      expect(delay).toBeLessThanOrEqual(5 * DAY);
    }
    const completedWithoutVideo = [...bookings.values()].filter(
      (b) => b.status === 'completed' && !videos.some((v) => v.reservation_id === b.reservation_id),
    );
    for (const b of completedWithoutVideo)
      expect(Date.parse(b.visit_at ?? '')).toBeGreaterThan(h.sandbox.clock.now().getTime() - 5 * DAY);

    const creators = (await pageThrough(h, '/locations/v-1/creators')) as Array<{
      creator_id: string;
      handle: string;
      accepted_at: string;
    }>;
    const accepted = new Set([...bookings.values()].filter((b) => b.visit_at !== null).map((b) => b.creator.handle));
    expect(new Set(creators.map((c) => c.handle))).toEqual(accepted);
    expect(new Set(creators.map((c) => c.creator_id)).size).toBe(creators.length);
  });

  it('gives paused stores no new bookings, and resumes them on resume', async () => {
    const h = await openSandbox(transport, { visitsPerWeek: 14 });
    await h.enroll('p-1');
    h.sandbox.clock.advance({ days: 3 });
    await h.call('POST', '/locations/p-1/pause');
    const pausedAt = h.sandbox.clock.now().getTime();
    h.sandbox.clock.advance({ days: 14 });
    const during = h.sandbox.inspect.reservations(h.key, 'p-1');
    expect(during.every((b) => Date.parse(b.created_at) <= pausedAt)).toBe(true);
    await h.call('POST', '/locations/p-1/resume');
    h.sandbox.clock.advance({ days: 7 });
    expect(h.sandbox.inspect.reservations(h.key, 'p-1').length).toBeGreaterThan(during.length + 4);
  });

  it('cancels a terminated store open bookings, keeps its history and books nothing new', async () => {
    const h = await openSandbox(transport, { seed: 4, visitsPerWeek: 14 });
    await h.enroll('t-1');
    h.sandbox.clock.advance({ days: 12 });
    const before = h.sandbox.inspect.reservations(h.key, 't-1');
    expect(before.some((b) => b.status === 'pending' || b.status === 'confirmed')).toBe(true);
    await h.call('POST', '/locations/t-1/terminate');
    h.sandbox.clock.advance({ days: 14 });
    const after = h.sandbox.inspect.reservations(h.key, 't-1');
    expect(after).toHaveLength(before.length);
    after.forEach((b, i) => {
      const was = before[i]?.status;
      expect(b.status).toBe(was === 'pending' || was === 'confirmed' ? 'cancelled' : was);
    });
  });

  it('books nothing for a store whose hours are missing', async () => {
    const h = await openSandbox(transport, { visitsPerWeek: 20 });
    await h.enroll('m-1', { address: address({ postal_code: '94110' }) });
    h.sandbox.clock.advance({ days: 30 });
    expect((await h.call('GET', '/locations/m-1/reservations')).body).toEqual({ items: [], next_cursor: null });
  });

  it('acknowledges a booking repeatably, the latest kind standing', async () => {
    const h = await openSandbox(transport, { visitsPerWeek: 14 });
    await h.enroll('a-1');
    h.sandbox.clock.advance({ days: 3 });
    const [first] = h.sandbox.inspect.reservations(h.key, 'a-1');
    if (!first) throw new Error('expected a booking');
    const path = `/reservations/${first.reservation_id}/acknowledge`;
    const one = await h.call('POST', path, { body: { acknowledged_kind: 'forwarded_to_manager' } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...first, acknowledged_kind: 'forwarded_to_manager' });
    const two = await h.call('POST', path, { body: { acknowledged_kind: 'acknowledged_self' } });
    expect(two.body.acknowledged_kind).toBe('acknowledged_self');
    expect(two.body.status).toBe(first.status);
    const bad = await h.call('POST', path, { body: { acknowledged_kind: 'seen' } });
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'acknowledged_kind' });
    const missing = await h.call('POST', '/reservations/res_nope/acknowledge', {
      body: { acknowledged_kind: 'acknowledged_self' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});

describe('booking simulation', () => {
  const run = async (seed: number) => {
    const sandbox = createSandbox({ seed });
    const key = sandbox.issueKey();
    await enrollMany(sandbox, key, 20);
    sandbox.clock.advance({ days: 21 });
    return sandbox.inspect.reservations(key);
  };

  it('is deterministic for a seed and differs between seeds', async () => {
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect(await run(43)).not.toEqual(a);
  });

  it('books about visitsPerWeek per store with the documented outcome rates', async () => {
    const sandbox = createSandbox({ seed: 9, visitsPerWeek: 3 });
    const key = sandbox.issueKey();
    await enrollMany(sandbox, key, 300);
    sandbox.clock.advance({ days: 56 });
    const all = sandbox.inspect.reservations(key);
    const count = (s: string) => all.filter((b) => b.status === s).length;
    expect(all.length / 300 / 8).toBeGreaterThan(2.7);
    expect(all.length / 300 / 8).toBeLessThan(3.3);
    const decided = all.length - count('pending');
    expect(count('rejected') / decided).toBeGreaterThan(0.05);
    expect(count('rejected') / decided).toBeLessThan(0.11);
    expect(count('completed') / (count('completed') + count('no_show'))).toBeGreaterThan(0.81);
    expect(count('completed') / (count('completed') + count('no_show'))).toBeLessThan(0.89);
    expect(count('cancelled') / decided).toBeGreaterThan(0.02);
    expect(count('cancelled') / decided).toBeLessThan(0.08);
  });

  it('advances four weeks over 2,000 stores in well under two seconds of CPU', async () => {
    const sandbox = createSandbox({ seed: 1 });
    const key = sandbox.issueKey();
    sandbox.populate(key, { locations: 2000 });
    // CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
    const started = process.cpuUsage();
    sandbox.clock.advance({ days: 28 });
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(2000);
    expect(sandbox.inspect.reservations(key).length).toBeGreaterThan(2000 * 3 * 3);
  });
});
