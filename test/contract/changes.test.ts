/**
 * The ground-truth change log, read in-process and over GET /_sandbox/changes. The judge is a
 * replay: applying the log in seq order must rebuild every booking's status and acknowledged_kind
 * and the list of videos exactly as the service's own lists return them.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxChange } from '../../src/testing/index.js';
import { control as send } from './support/control.js';
import { address, openSandbox, pageThrough, TRANSPORTS, type Harness } from './support/harness.js';

interface Booking {
  reservation_id: string;
  status: string;
  acknowledged_kind: string | null;
  created_at: string;
}

const control = async (
  h: Harness,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
) => {
  const { status, body } = await send(h.baseUrl, method, path, init);
  return { status, body };
};

/** Every change of the key's account over HTTP, in pages of `limit`. */
async function readAll(h: Harness, limit: number, key = h.key): Promise<SandboxChange[]> {
  const out: SandboxChange[] = [];
  let after = 0;
  for (;;) {
    const r = await control(h, 'GET', `/changes?after=${after}&limit=${limit}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeLessThanOrEqual(limit);
    out.push(...r.body.items);
    if (r.body.next_after === null) return out;
    expect(r.body.next_after).toBe(r.body.items.at(-1).seq);
    after = r.body.next_after;
  }
}

function replay(changes: SandboxChange[]) {
  const bookings = new Map<string, { status: string; acknowledged_kind: string | null }>();
  const videos: string[] = [];
  for (const c of changes) {
    if (c.type === 'video.published') {
      expect(bookings.get(c.reservation_id)?.status).toBe('completed');
      videos.push(c.video_id as string);
      continue;
    }
    if (c.type === 'reservation.created') expect(bookings.has(c.reservation_id)).toBe(false);
    else expect(bookings.has(c.reservation_id)).toBe(true);
    bookings.set(c.reservation_id, { status: c.status as string, acknowledged_kind: c.acknowledged_kind ?? null });
  }
  return { bookings, videos };
}

describe.each(TRANSPORTS)('the change log (%s)', (transport) => {
  it('replays to exactly the bookings and videos the service lists, in seq and time order', async () => {
    const h = await openSandbox(transport, { seed: 3, visitsPerWeek: 10 });
    for (let i = 1; i <= 3; i++)
      await h.enroll(`c-${i}`, { address: address({ line1: `${i} Main St`, postal_code: `9410${i}` }) });
    h.sandbox.clock.advance({ days: 20 });
    const first = ((await pageThrough(h, '/reservations')) as Booking[]).find(
      (b) => b.status === 'confirmed' || b.status === 'completed',
    );
    expect(first).toBeDefined();
    expect(
      (
        await h.call('POST', `/reservations/${first?.reservation_id}/acknowledge`, {
          body: { acknowledged_kind: 'forwarded_to_manager' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.call('POST', `/reservations/${first?.reservation_id}/acknowledge`, {
          body: { acknowledged_kind: 'forwarded_to_manager' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.call('POST', `/reservations/${first?.reservation_id}/acknowledge`, {
          body: { acknowledged_kind: 'acknowledged_self' },
        })
      ).status,
    ).toBe(200);
    await h.call('POST', '/locations/c-2/terminate');
    h.sandbox.clock.advance({ days: 10 });

    const changes = h.sandbox.inspect.changes(h.key);
    expect(await readAll(h, 7)).toEqual(changes);
    for (let i = 1; i < changes.length; i++) {
      expect(changes[i]?.seq).toBeGreaterThan(changes[i - 1]?.seq as number);
      expect(Date.parse(changes[i]?.at as string)).toBeGreaterThanOrEqual(Date.parse(changes[i - 1]?.at as string));
    }
    expect(changes[0]?.seq).toBe(1);

    const { bookings, videos } = replay(changes);
    const listed = (await pageThrough(h, '/reservations')) as Booking[];
    expect(
      new Map(listed.map((b) => [b.reservation_id, { status: b.status, acknowledged_kind: b.acknowledged_kind }])),
    ).toEqual(bookings);
    for (const b of listed) {
      const created = changes.find((c) => c.type === 'reservation.created' && c.reservation_id === b.reservation_id);
      expect(created?.at).toBe(b.created_at);
      expect(created?.status).toBe('pending');
    }
    const listedVideos: string[] = [];
    for (let i = 1; i <= 3; i++)
      listedVideos.push(
        ...((await pageThrough(h, `/locations/c-${i}/content`)) as Array<{ video_id: string }>).map((v) => v.video_id),
      );
    expect(videos.length).toBeGreaterThan(0);
    expect(videos.sort()).toEqual(listedVideos.sort());
    for (const c of changes.filter((x) => x.type === 'video.published')) {
      const v = (await pageThrough(h, `/locations/${c.partner_location_id}/content`)) as Array<{
        video_id: string;
        reservation_id: string;
        posted_at: string;
      }>;
      const video = v.find((x) => x.video_id === c.video_id);
      expect(video?.reservation_id).toBe(c.reservation_id);
      expect(video?.posted_at).toBe(c.at);
      expect(Object.keys(c).sort()).toEqual(['at', 'partner_location_id', 'reservation_id', 'seq', 'type', 'video_id']);
    }

    // The acknowledgements: a repeat of the same kind is not a change; a new kind is.
    const acks = changes.filter(
      (c) => c.reservation_id === first?.reservation_id && c.changed?.includes('acknowledged_kind'),
    );
    expect(acks.map((c) => [c.acknowledged_kind, c.changed, c.status])).toEqual([
      ['forwarded_to_manager', ['acknowledged_kind'], acks[0]?.status],
      ['acknowledged_self', ['acknowledged_kind'], acks[0]?.status],
    ]);
    // Every kind of status change appears, each naming only the status.
    const updates = changes.filter((c) => c.type === 'reservation.updated' && c.changed?.includes('status'));
    expect(new Set(updates.map((c) => c.status))).toEqual(
      new Set(['confirmed', 'rejected', 'cancelled', 'completed', 'no_show']),
    );
    expect(updates.every((c) => c.changed?.length === 1)).toBe(true);
    // Terminating c-2 cancelled its open bookings at that moment.
    expect(changes.some((c) => c.partner_location_id === 'c-2' && c.status === 'cancelled')).toBe(true);
  });

  it('keeps each account to its own changes while seq runs across the sandbox', async () => {
    const h = await openSandbox(transport, { seed: 8, visitsPerWeek: 20 });
    const other = h.sandbox.issueKey();
    await h.enroll('mine');
    await h.enroll('theirs', {}, other);
    h.sandbox.clock.advance({ days: 7 });
    const mine = await readAll(h, 1000);
    const theirs = await readAll(h, 1000, other);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.partner_location_id === 'mine')).toBe(true);
    expect(theirs.every((c) => c.partner_location_id === 'theirs')).toBe(true);
    expect([...mine, ...theirs].map((c) => c.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: mine.length + theirs.length }, (_, i) => i + 1),
    );
    // after skips exactly the changes up to that seq, even one of another account.
    const cut = theirs[0]?.seq as number;
    expect(
      (await control(h, 'GET', `/changes?after=${cut}`, { headers: { authorization: `Bearer ${h.key}` } })).body.items,
    ).toEqual(mine.filter((c) => c.seq > cut).slice(0, 100));
    expect(h.sandbox.inspect.changes(h.key, { after: cut, limit: 2 })).toEqual(
      mine.filter((c) => c.seq > cut).slice(0, 2),
    );
  });

  it('refuses to read changes without a key of this sandbox, or with bad paging', async () => {
    const h = await openSandbox(transport);
    expect(await control(h, 'GET', '/changes')).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    });
    expect((await control(h, 'GET', '/changes', { headers: { authorization: 'Bearer crp_test_nope' } })).status).toBe(
      401,
    );
    const auth = { authorization: `Bearer ${h.key}` };
    expect(await control(h, 'GET', '/changes?limit=0', { headers: auth })).toMatchObject({
      status: 400,
      body: { error: { code: 'validation_error', field: 'limit' } },
    });
    expect(await control(h, 'GET', '/changes?limit=1001', { headers: auth })).toMatchObject({
      status: 400,
      body: { error: { field: 'limit' } },
    });
    expect(await control(h, 'GET', '/changes?after=-1', { headers: auth })).toMatchObject({
      status: 400,
      body: { error: { field: 'after' } },
    });
    expect(await control(h, 'GET', '/changes?since=1', { headers: auth })).toMatchObject({
      status: 400,
      body: { error: { field: 'since' } },
    });
    expect(await control(h, 'GET', '/changes', { headers: auth })).toEqual({
      status: 200,
      body: { items: [], next_after: null },
    });
  });

  it('reads and advances the clock by a duration or to an instant, never backwards', async () => {
    const h = await openSandbox(transport, { now: '2026-12-01T09:00:00Z' });
    expect(await control(h, 'GET', '/clock')).toEqual({ status: 200, body: { now: '2026-12-01T09:00:00.000Z' } });
    expect(await control(h, 'POST', '/clock/advance', { body: { by_ms: 90_000 } })).toEqual({
      status: 200,
      body: { now: '2026-12-01T09:01:30.000Z' },
    });
    expect(await control(h, 'POST', '/clock/advance', { body: { to: '2026-12-08T00:00:00Z' } })).toEqual({
      status: 200,
      body: { now: '2026-12-08T00:00:00.000Z' },
    });
    expect(h.sandbox.clock.now().toISOString()).toBe('2026-12-08T00:00:00.000Z');
    for (const body of [
      { to: '2026-12-01T00:00:00Z' },
      { by_ms: -1 },
      { by_ms: 'soon' },
      {},
      { by_ms: 1, to: '2027-01-01T00:00:00Z' },
      { to: 'tomorrow' },
      { weeks: 1 },
      { by_ms: 1, ms: 1 },
    ]) {
      const r = await control(h, 'POST', '/clock/advance', { body });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('validation_error');
    }
    expect((await control(h, 'GET', '/clock')).body.now).toBe('2026-12-08T00:00:00.000Z');
    expect(await control(h, 'DELETE', '/clock')).toMatchObject({
      status: 405,
      body: { error: { code: 'method_not_allowed' } },
    });
    expect(await control(h, 'GET', '/nothing')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it('never runs control calls through faults, the rate limit or the request log', async () => {
    const h = await openSandbox(transport, {}, { rateLimit: { limit: 1, windowMs: 60_000 } });
    h.sandbox.faults.next({ status: 503, times: 5 });
    for (let i = 0; i < 3; i++)
      expect((await control(h, 'GET', '/changes', { headers: { authorization: `Bearer ${h.key}` } })).status).toBe(200);
    expect(h.sandbox.requests).toEqual([]);
    expect(h.sandbox.faults.pending).toBe(5);
  });
});

describe('the change log of populated data', () => {
  it('logs every populated booking and video at the moment of populate, then moves on with the clock', async () => {
    const h = await openSandbox('http', { seed: 4 });
    h.sandbox.clock.advance({ hours: 1 });
    const result = h.sandbox.populate(h.key, { locations: 5, reservationsPerLocation: 40 });
    const now = `${h.sandbox.clock.now().toISOString().slice(0, 19)}Z`;
    const changes = h.sandbox.inspect.changes(h.key);
    const videos = (
      await Promise.all(result.locationIds.map((id) => pageThrough(h, `/locations/${id}/content`)))
    ).flat();
    expect(changes.filter((c) => c.type === 'reservation.created')).toHaveLength(result.reservations);
    expect(changes.filter((c) => c.type === 'video.published')).toHaveLength(videos.length);
    expect(changes.every((c) => c.at === now)).toBe(true);
    h.sandbox.clock.advance({ days: 12 });
    const later = h.sandbox.inspect.changes(h.key, { after: changes.at(-1)?.seq as number });
    expect(later.some((c) => c.type === 'reservation.updated')).toBe(true);
    expect(later.every((c) => c.at > now)).toBe(true);
    const { bookings } = replay([...changes, ...later]);
    const listed = (await pageThrough(h, '/reservations')) as Booking[];
    expect(
      new Map(listed.map((b) => [b.reservation_id, { status: b.status, acknowledged_kind: b.acknowledged_kind }])),
    ).toEqual(bookings);
  });
});

describe('the control API with an admin token', () => {
  it('answers only calls that carry the token; a crp_test_ key never opens it', async () => {
    const h = await openSandbox('http', { adminToken: 's3cret-admin' });
    expect(await control(h, 'GET', '/clock')).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect((await control(h, 'GET', '/clock', { headers: { authorization: `Bearer ${h.key}` } })).status).toBe(401);
    expect((await control(h, 'GET', '/changes', { headers: { authorization: `Bearer ${h.key}` } })).status).toBe(401);
    expect((await control(h, 'GET', '/clock', { headers: { 'x-sandbox-admin-token': 's3cret-admin-' } })).status).toBe(
      401,
    );
    expect((await control(h, 'GET', '/clock', { headers: { 'x-sandbox-admin-token': 's3cret-admin' } })).status).toBe(
      200,
    );
    const both = { 'x-sandbox-admin-token': 's3cret-admin', authorization: `Bearer ${h.key}` };
    expect(await control(h, 'GET', '/changes', { headers: both })).toEqual({
      status: 200,
      body: { items: [], next_after: null },
    });
    // The service itself is unchanged: the key works there as always.
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });
});
