import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ProhibitedRuleError, type PartnerClient } from '../../src/index.js';
import { address, startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';
import { collect } from '../helpers/collect.js';
import { refusedUnsent } from '../helpers/refused-unsent.js';

/**
 * Input the SDK must refuse before sending, through a real client and the sandbox: the sandbox's
 * request log proves nothing reached it.
 */
describe('refused before sending', () => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv('http');
    client = env.client();
  });
  afterAll(() => env.close());

  describe.each(['.', '..'])('the id %j (a URL would drop or climb it)', (id) => {
    const body = { name: 'N', address: address(1) };
    const everyMethodTakingAnId: Array<[string, string, (c: PartnerClient) => PromiseLike<unknown>]> = [
      ['locations.get', 'partner_location_id', (c) => c.locations.get(id)],
      ['locations.update', 'partner_location_id', (c) => c.locations.update(id, { name: 'M' })],
      ['locations.pause', 'partner_location_id', (c) => c.locations.pause(id)],
      ['locations.resume', 'partner_location_id', (c) => c.locations.resume(id)],
      ['locations.terminate', 'partner_location_id', (c) => c.locations.terminate(id)],
      ['locations.createDashboardToken', 'partner_location_id', (c) => c.locations.createDashboardToken(id)],
      ['locations.enroll', 'partner_location_id', (c) => c.locations.enroll({ partner_location_id: id, ...body })],
      ['reservations.listForLocation', 'partner_location_id', (c) => c.reservations.listForLocation(id)],
      [
        'reservations.listForLocation (for await)',
        'partner_location_id',
        (c) => collect(c.reservations.listForLocation(id)),
      ],
      ['reservations.list filter', 'partner_location_id', (c) => c.reservations.list({ partner_location_id: id })],
      ['reservations.acknowledge', 'reservation_id', (c) => c.reservations.acknowledge(id, 'acknowledged_self')],
      ['content.list', 'partner_location_id', (c) => c.content.list(id)],
      ['creators.list', 'partner_location_id', (c) => c.creators.list(id)],
      ['creators.getSamples', 'partner_location_id', (c) => c.creators.getSamples(id)],
      [
        'creators.decideSamples (store)',
        'partner_location_id',
        (c) => c.creators.decideSamples(id, 'batch_1', 'approve'),
      ],
      ['creators.decideSamples (batch)', 'batch_id', (c) => c.creators.decideSamples('store-1', id, 'approve')],
    ];
    it.each(everyMethodTakingAnId)('%s refuses it as %s', async (_, field, call) => {
      const error = await refusedUnsent(env, () => call(client));
      expect(error.field).toBe(field);
      expect(error.message).toMatch(/must not be "\." or "\.\."/);
      expect(error.requestId).toBeUndefined();
    });
  });

  it('ids that merely contain dots still go through', async () => {
    const store = await client.locations.enroll({ partner_location_id: '...a.b', name: 'Dots', address: address(2) });
    expect((await client.locations.get(store.partner_location_id)).partner_location_id).toBe('...a.b');
  });

  describe('input JSON cannot carry', () => {
    const body = (rules: unknown) =>
      ({ partner_location_id: 'store-x', name: 'N', address: address(3), rules }) as never;

    it('rules nested 10,000 deep: a ValidationError, not a stack overflow', async () => {
      let deep: Record<string, unknown> = {};
      const root = deep;
      for (let i = 0; i < 10_000; i++) deep = deep.next = {};
      const error = await refusedUnsent(env, () =>
        client.locations.enroll(body({ platforms: [], follower_range_by_platform: root })),
      );
      expect(error.message).toMatch(/nested too deeply/);
      expect(error.field).toMatch(/^rules\.follower_range_by_platform(\.next)+$/);
    });

    it('circular rules: a ValidationError naming where', async () => {
      const rules: Record<string, unknown> = { platforms: ['instagram'] };
      rules.follower_range = { min: 1, self: rules };
      const error = await refusedUnsent(env, () => client.locations.update('store-x', { rules } as never));
      expect(error.message).toMatch(/contains itself/);
      expect(error.field).toBe('rules.follower_range.self');
    });

    it('a BigInt is named as such', async () => {
      const error = await refusedUnsent(env, () => client.settings.update({ surcharge_per_video_cents: 10n as never }));
      expect(error.field).toBe('surcharge_per_video_cents');
      expect(error.message).toMatch(/is a BigInt/);
    });

    it('NaN is named as such', async () => {
      const error = await refusedUnsent(env, () =>
        client.pricing.quote({ plan: 'growth', videos_per_month: Number.NaN }),
      );
      expect(error.field).toBe('videos_per_month');
      expect(error.message).toMatch(/is NaN/);
    });

    it('a wrong type is not called missing', async () => {
      const error = await refusedUnsent(env, () => client.reservations.list({ limit: '10' as never }));
      expect(error.message).toBe('limit must be a number. Nothing was sent.');
    });

    it('a prohibited rule is still a ProhibitedRuleError before sending', async () => {
      const before = env.sandbox.requests.length;
      const error = await client.locations.enroll(body({ min_age: 21 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProhibitedRuleError);
      expect(env.sandbox.requests.length).toBe(before);
    });
  });

  it('a 409 on enrollment names the SDK method to use instead', async () => {
    await client.locations.enroll({ partner_location_id: 'store-409', name: 'First', address: address(4) });
    const error = await client.locations
      .enroll({ partner_location_id: 'store-409', name: 'Second', address: address(4) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toContain("client.locations.update('store-409', { name, address })");
  });

  it('a 409 on a terminated store says what to check', async () => {
    await client.locations.enroll({ partner_location_id: 'store-done', name: 'Done', address: address(5) });
    await client.locations.terminate('store-done');
    const error = await client.locations.pause('store-done').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_state' });
    expect((error as Error).message).toContain('client.locations.get()');
  });
});

describe('walking every item asks for the largest page', () => {
  let env: SdkEnv;
  beforeAll(async () => {
    env = await startSdkEnv('msw');
  });
  afterAll(() => env.close());

  it('250 bookings walked with for await take 2 requests of limit=200; awaiting the list and a caller’s limit keep theirs', async () => {
    const urls: string[] = [];
    const client = env.client({
      fetch: (url, init) => (urls.push(url instanceof Request ? url.url : String(url)), globalThis.fetch(url, init)),
    });
    const { locationIds } = env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 250 });
    const store = locationIds[0]!;
    let count = 0;
    for await (const _ of client.reservations.listForLocation(store)) count++;
    expect(count).toBe(250);
    expect(urls.map((u) => new URL(u).searchParams.get('limit'))).toEqual(['200', '200']);

    urls.length = 0;
    const first = await client.reservations.listForLocation(store);
    expect(first.items.length).toBe(50);
    expect(new URL(urls[0]!).searchParams.get('limit')).toBeNull();

    urls.length = 0;
    for await (const _ of client.reservations.listForLocation(store, { limit: 100 })) void _;
    expect(urls.map((u) => new URL(u).searchParams.get('limit'))).toEqual(['100', '100', '100']);
  });
});
