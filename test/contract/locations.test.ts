import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { address, openSandbox, TRANSPORTS } from './support/harness.js';

const STORE_FIELDS = [
  'partner_location_id',
  'name',
  'address',
  'status',
  'hours',
  'time_zone',
  'preferred_language',
  'plan',
  'dishes',
  'contact',
  'rules',
  'created_at',
  'updated_at',
].sort();

describe.each(TRANSPORTS)('stores (%s)', (transport) => {
  it('enrolls a new store with 201 and returns the store record', async () => {
    const h = await openSandbox(transport);
    const r = await h.enroll('sf-1', { dishes: ['dumplings'] });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(STORE_FIELDS);
    expect(r.body).toMatchObject({
      partner_location_id: 'sf-1',
      status: 'active',
      hours: { state: 'found' },
      time_zone: 'America/Los_Angeles',
      preferred_language: 'en',
      plan: null,
      dishes: ['dumplings'],
      created_at: '2026-12-01T09:00:00Z',
      updated_at: '2026-12-01T09:00:00Z',
    });
  });

  it('returns 200 and the same unchanged store when the same store is enrolled again', async () => {
    const h = await openSandbox(transport);
    const first = await h.enroll('sf-1');
    h.sandbox.clock.advance({ hours: 2 });
    const again = await h.enroll('sf-1', { dishes: ['different'] });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(h.sandbox.inspect.stores(h.key)).toHaveLength(1);
  });

  it('answers 409 conflict when the same id comes with a different name or address', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sf-1');
    const renamed = await h.enroll('sf-1', { name: 'Another name' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.code).toBe('conflict');
    expect(renamed.body.error.message).toMatch(/PATCH/);
    const moved = await h.enroll('sf-1', { address: address({ line1: '1 Other St' }) });
    expect(moved.status).toBe(409);
  });

  it.each(['.', '..', '%2e', '%2E%2e', '.%2e'])(
    'refuses %j as partner_location_id with 400 naming the field, and enrolls nothing',
    async (id) => {
      const h = await openSandbox(transport);
      const r = await h.enroll(id);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'validation_error', field: 'partner_location_id' });
      expect(r.body.error.message).toMatch(/^partner_location_id /);
      expect(h.sandbox.inspect.stores(h.key)).toHaveLength(0);
      // Dots inside an id are still fine: only a whole dot-segment is collapsed by URL parsing.
      expect((await h.enroll('...')).status).toBe(201);
      expect((await h.enroll('a.b')).status).toBe(201);
    },
  );

  it('refuses rules that select by ethnicity, age or gender with 422 before checking the schema', async () => {
    const h = await openSandbox(transport);
    // The body is also invalid (no name); the prohibited rule is reported first.
    const r = await h.call('POST', '/locations', {
      body: { partner_location_id: 'p-1', address: address(), rules: { follower_range: { min: 10 }, min_age: 21 } },
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'prohibited_rule', field: 'rules.min_age' });
    const nested = await h.enroll('p-2', { rules: { follower_range_by_platform: { tiktok: { gender: 'f' } } } });
    expect(nested.body.error.field).toBe('rules.follower_range_by_platform.tiktok.gender');
    await h.enroll('p-3');
    const patch = await h.call('PATCH', '/locations/p-3', { body: { rules: { ethnicity: ['x'] } } });
    expect(patch.status).toBe(422);
  });

  it('puts a store whose postal code ends in 0 on hold with hours missing', async () => {
    const h = await openSandbox(transport);
    const r = await h.enroll('hold-1', { address: address({ postal_code: '94110' }) });
    expect(r.body.hours).toEqual({ state: 'missing', weekly: null });
    const found = await h.enroll('found-1', { address: address({ postal_code: '94111' }) });
    expect(found.body.hours.state).toBe('found');
    expect(Object.keys(found.body.hours.weekly).length).toBeGreaterThanOrEqual(6);
  });

  it('looks up the same hours for the same address every time', async () => {
    const h = await openSandbox(transport, { seed: 1 });
    const one = await h.enroll('x');
    const other = createSandbox({ seed: 99 });
    const otherKey = other.issueKey();
    const body = JSON.stringify({ partner_location_id: 'y', name: 'Y', address: address() });
    const two = await other.handle(
      new Request('https://x.test/partner/v1/locations', {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${otherKey}` },
      }),
    );
    expect(((await two.json()) as { hours: unknown }).hours).toEqual(one.body.hours);
    const elsewhere = await h.enroll('z', { address: address({ line1: '1 Elsewhere Rd', postal_code: '94107' }) });
    expect(elsewhere.body.hours).not.toEqual(one.body.hours);
  });

  it('keeps hours sent at enrollment and marks them found', async () => {
    const h = await openSandbox(transport);
    const weekly = { mon: [{ open: '09:00', close: '17:00' }] };
    const r = await h.enroll('h-1', { address: address({ postal_code: '94110' }), hours: { weekly } });
    expect(r.body.hours).toEqual({ state: 'found', weekly });
    const withState = await h.enroll('h-2', { hours: { state: 'found', weekly } });
    expect(withState.body.error.field).toBe('hours.state');
  });

  it('infers the time zone from country and US state, falling back to UTC', async () => {
    const h = await openSandbox(transport);
    const zone = async (id: string, a: Record<string, string>) =>
      (await h.enroll(id, { address: address(a) })).body.time_zone;
    expect(await zone('tz-1', { state: 'NY', postal_code: '10001' })).toBe('America/New_York');
    expect(await zone('tz-2', { state: 'TX' })).toBe('America/Chicago');
    expect(await zone('tz-3', { country: 'GB', state: 'London' })).toBe('Europe/London');
    expect(await zone('tz-4', { country: 'CN', state: 'Shanghai' })).toBe('Asia/Shanghai');
    expect(await zone('tz-5', { country: 'ZW', state: 'Harare' })).toBe('UTC');
    const given = await h.enroll('tz-6', { time_zone: 'Asia/Tokyo' });
    expect(given.body.time_zone).toBe('Asia/Tokyo');
    const bad = await h.enroll('tz-7', { time_zone: 'Mars/Olympus' });
    expect(bad.body.error.field).toBe('time_zone');
  });

  it('adds progress and next_visit to the single-store read', async () => {
    const h = await openSandbox(transport, { seed: 3, visitsPerWeek: 7 });
    await h.enroll('r-1');
    const fresh = await h.call('GET', '/locations/r-1');
    expect(fresh.body.progress).toEqual({ visits_scheduled: 0, visits_completed: 0, videos_published: 0 });
    expect(fresh.body.next_visit).toBeNull();
    h.sandbox.clock.advance({ days: 21 });
    const later = (await h.call('GET', '/locations/r-1')).body;
    const bookings = h.sandbox.inspect.reservations(h.key, 'r-1');
    expect(later.progress).toEqual({
      visits_scheduled: bookings.filter((b) => b.status === 'confirmed').length,
      visits_completed: bookings.filter((b) => b.status === 'completed').length,
      videos_published: h.sandbox.inspect.videos(h.key, 'r-1').length,
    });
    expect(later.progress.visits_completed).toBeGreaterThan(0);
    const upcoming = bookings
      .filter((b) => b.status === 'confirmed')
      .sort((x, y) => Date.parse(x.visit_at ?? '') - Date.parse(y.visit_at ?? ''));
    expect(later.next_visit).toEqual(
      upcoming[0] ? { reservation_id: upcoming[0].reservation_id, visit_at: upcoming[0].visit_at } : null,
    );
  });

  it('answers 404 not_found for a store that does not exist', async () => {
    const h = await openSandbox(transport);
    for (const [method, path] of [
      ['GET', '/locations/ghost'],
      ['POST', '/locations/ghost/pause'],
      ['GET', '/locations/ghost/reservations'],
      ['GET', '/locations/ghost/content'],
    ]) {
      const r = await h.call(method as string, path as string);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
  });

  it('changes only the listed fields with PATCH and refuses others', async () => {
    const h = await openSandbox(transport);
    const created = (await h.enroll('pt-1')).body;
    h.sandbox.clock.advance({ minutes: 5 });
    const r = await h.call('PATCH', '/locations/pt-1', {
      body: { name: 'New name', plan: { name: 'growth', videos_per_month: 4 }, preferred_language: 'zh' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'New name',
      plan: { name: 'growth', videos_per_month: 4 },
      preferred_language: 'zh',
      address: created.address,
    });
    expect(r.body.updated_at).toBe('2026-12-01T09:05:00Z');
    expect(r.body.created_at).toBe(created.created_at);
    const refused = await h.call('PATCH', '/locations/pt-1', { body: { status: 'paused' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe('status');
    const badLanguage = await h.call('PATCH', '/locations/pt-1', { body: { preferred_language: 'fr' } });
    expect(badLanguage.body.error.field).toBe('preferred_language');
  });

  it('makes a store on hold found when hours are set, and bookings start', async () => {
    const h = await openSandbox(transport, { visitsPerWeek: 10 });
    await h.enroll('hold-1', { address: address({ postal_code: '94110' }) });
    h.sandbox.clock.advance({ days: 14 });
    expect(h.sandbox.inspect.reservations(h.key, 'hold-1')).toHaveLength(0);
    const weekly = { mon: [{ open: '11:00', close: '22:00' }], sat: [{ open: '11:00', close: '22:00' }] };
    const r = await h.call('PATCH', '/locations/hold-1', { body: { hours: { weekly } } });
    expect(r.body.hours).toEqual({ state: 'found', weekly });
    h.sandbox.clock.advance({ days: 14 });
    expect(h.sandbox.inspect.reservations(h.key, 'hold-1').length).toBeGreaterThan(5);
  });

  it('pauses, resumes and terminates, repeatably, and refuses pause or resume once terminated', async () => {
    const h = await openSandbox(transport);
    await h.enroll('lc-1');
    const status = async (action: string) => {
      const r = await h.call('POST', `/locations/lc-1/${action}`);
      return r.status === 200 ? r.body.status : `${r.status} ${r.body.error.code}`;
    };
    expect(await status('resume')).toBe('active');
    expect(await status('pause')).toBe('paused');
    expect(await status('pause')).toBe('paused');
    expect(await status('resume')).toBe('active');
    expect(await status('terminate')).toBe('terminated');
    expect(await status('terminate')).toBe('terminated');
    expect(await status('pause')).toBe('409 invalid_state');
    expect(await status('resume')).toBe('409 invalid_state');
  });

  it('answers 403 feature_not_enabled for dashboard tokens while the feature is off', async () => {
    const off = await openSandbox(transport);
    await off.enroll('d-1');
    const refused = await off.call('POST', '/locations/d-1/dashboard-token');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('feature_not_enabled');
  });

  it('issues a dashboard token valid 30 simulated minutes when the feature is on', async () => {
    const on = await openSandbox(transport, { features: { dashboardToken: true } });
    expect((await on.enroll('d-1')).status).toBe(201);
    const r = await on.call('POST', '/locations/d-1/dashboard-token');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ token: expect.stringMatching(/^dtk_/), expires_at: '2026-12-01T09:30:00Z' });
    expect((await on.call('POST', '/locations/ghost/dashboard-token')).status).toBe(404);
  });
});
