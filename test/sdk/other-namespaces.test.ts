import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError, type PartnerClient } from '../../src/index.js';
import { TRANSPORTS, address, startSdkEnv, weekly, type SdkEnv } from '../helpers/sdk-env.js';
import { collect } from '../helpers/collect.js';

describe.each(TRANSPORTS)('content, creators, reports, settings and pricing over %s', (kind) => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv(kind, { visitsPerWeek: 6 });
    client = env.client();
    await client.locations.enroll({
      partner_location_id: 'with-plan',
      name: 'Planned',
      address: address(1),
      hours: { weekly },
      plan: { name: 'growth', videos_per_month: 8 },
    });
    await client.locations.enroll({
      partner_location_id: 'no-plan',
      name: 'Plain',
      address: address(2),
      hours: { weekly },
    });
    env.sandbox.clock.advance({ days: 30 });
  });
  afterAll(() => env.close());

  it('lists published videos, each tied to a completed booking', async () => {
    const videos = await collect(client.content.list('with-plan', { limit: 2 }));
    expect(videos.length).toBeGreaterThan(0);
    const completed = new Set(
      (await collect(client.reservations.listForLocation('with-plan')))
        .filter((r) => r.status === 'completed')
        .map((r) => r.reservation_id),
    );
    for (const v of videos) {
      expect(completed.has(v.reservation_id)).toBe(true);
      expect(v.url).toMatch(/^https:\/\//);
      expect(v).not.toHaveProperty('views');
    }
  });

  it('lists creators from acceptance on, without contact details', async () => {
    const creators = await collect(client.creators.list('with-plan'));
    expect(creators.length).toBeGreaterThan(0);
    expect(creators[0]).toEqual(
      expect.objectContaining({
        creator_id: expect.any(String),
        handle: expect.any(String),
        accepted_at: expect.any(String),
      }),
    );
    expect(JSON.stringify(creators)).not.toMatch(/email|phone/i);
  });

  it('reads and decides a sample batch', async () => {
    const batch = await client.creators.getSamples('with-plan');
    expect(batch.status).toBe('awaiting_decision');
    const replacement = await client.creators.decideSamples('with-plan', batch.batch_id, 'new_batch');
    expect(replacement.batch_id).not.toBe(batch.batch_id);
    const approved = await client.creators.decideSamples('with-plan', replacement.batch_id, 'approve');
    expect(approved.status).toBe('approved');
    await expect(client.creators.decideSamples('with-plan', batch.batch_id, 'approve')).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it('gives NotFoundError for samples of a store without sample review', async () => {
    await expect(client.creators.getSamples('no-plan')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('summarises the account', async () => {
    const summary = await client.reports.summary();
    expect(summary.locations).toMatchObject({ total: 2, active: 2, paused: 0, terminated: 0, hours_missing: 0 });
    expect(summary.generated_at).toMatch(/Z$/);
    const all = await collect(client.reservations.list());
    expect(summary.reservations.completed).toBe(all.filter((r) => r.status === 'completed').length);
  });

  it('counts monthly billing from what happened', async () => {
    const month = env.sandbox.clock.now().toISOString().slice(0, 7);
    const rows = await collect(client.reports.billingMonthly(month, { limit: 1 }));
    expect(rows.map((r) => r.partner_location_id).sort()).toEqual(['no-plan', 'with-plan']);
    const bookings = await collect(client.reservations.list({ partner_location_id: 'with-plan' }));
    const inMonth = (r: { visit_at: string | null }) =>
      r.visit_at !== null && new Date(r.visit_at).toISOString().startsWith(month);
    const row = rows.find((r) => r.partner_location_id === 'with-plan')!;
    expect(row.completed_visits).toBe(bookings.filter((r) => r.status === 'completed' && inMonth(r)).length);
    expect(row.no_shows).toBe(bookings.filter((r) => r.status === 'no_show' && inMonth(r)).length);
    expect(row.completed_visits).toBeGreaterThan(0);
  });

  it('refuses a malformed month before sending', async () => {
    await expect(client.reports.billingMonthly('2026-13')).rejects.toMatchObject({
      code: 'validation_error',
      field: 'month',
    });
    await expect(client.reports.billingMonthly('2026-1')).rejects.toBeInstanceOf(ValidationError);
  });

  it('reads and sets the surcharge', async () => {
    const before = await client.settings.get();
    expect(before.surcharge_per_video_cents).toBe(0);
    const after = await client.settings.update({ surcharge_per_video_cents: 250 });
    expect(after.surcharge_per_video_cents).toBe(250);
    await expect(client.settings.update({ surcharge_per_video_cents: -1 })).rejects.toMatchObject({
      field: 'surcharge_per_video_cents',
    });
  });

  it('quotes a price including the surcharge', async () => {
    const quote = await client.pricing.quote({ plan: 'growth', videos_per_month: 8, country: 'US' });
    expect(quote.total_cents).toBe((quote.price_per_video_cents + quote.surcharge_per_video_cents) * 8);
    await expect(client.pricing.quote({ plan: 'growth', videos_per_month: 0 })).rejects.toMatchObject({
      field: 'videos_per_month',
    });
    await expect(client.pricing.quote({ plan: 'platinum-unknown', videos_per_month: 4 })).rejects.toMatchObject({
      status: 400,
      field: 'plan',
    });
  });
});
