import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  FeatureNotEnabledError,
  NotFoundError,
  ProhibitedRuleError,
  ValidationError,
  type PartnerClient,
} from '../../src/index.js';
import { TRANSPORTS, address, startSdkEnv, weekly, type SdkEnv } from '../helpers/sdk-env.js';

describe.each(TRANSPORTS)('locations over %s', (kind) => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv(kind);
    client = env.client();
  });
  afterAll(() => env.close());

  it('enrolls a store with 201 and returns it typed', async () => {
    const { data, response } = await client.locations
      .enroll({ partner_location_id: 'loc-1', name: 'Noodle Bar', address: address(1), hours: { weekly } })
      .withResponse();
    expect(response.status).toBe(201);
    expect(response.requestId).toMatch(/.+/);
    expect(data).toMatchObject({ partner_location_id: 'loc-1', name: 'Noodle Bar', status: 'active' });
    expect(data.hours.state).toBe('found');
    expect(data.address.state).toBe('CA');
  });

  it('returns the same store with 200 when the same enrollment is sent again', async () => {
    const first = await client.locations.enroll({
      partner_location_id: 'loc-2',
      name: 'Taco Stand',
      address: address(2),
    });
    const again = await client.locations
      .enroll({ partner_location_id: 'loc-2', name: 'Taco Stand', address: address(2) })
      .withResponse();
    expect(again.response.status).toBe(200);
    expect(again.data.created_at).toBe(first.created_at);
  });

  it('refuses a second enrollment with a different name as ConflictError', async () => {
    await client.locations.enroll({ partner_location_id: 'loc-3', name: 'Dim Sum', address: address(3) });
    const error = await client.locations
      .enroll({ partner_location_id: 'loc-3', name: 'Other', address: address(3) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('marks hours missing when the lookup finds none', async () => {
    const store = await client.locations.enroll({
      partner_location_id: 'loc-nohours',
      name: 'Ghost Kitchen',
      address: { ...address(4), postal_code: '94110' },
    });
    expect(store.hours.state).toBe('missing');
  });

  it('reads a store with progress and next_visit', async () => {
    const store = await client.locations.get('loc-1');
    expect(store.progress).toEqual({ visits_scheduled: expect.any(Number), visits_completed: 0, videos_published: 0 });
    expect(store).toHaveProperty('next_visit');
  });

  it('throws NotFoundError for an unknown store', async () => {
    await expect(client.locations.get('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('updates the listed fields', async () => {
    const store = await client.locations.update('loc-1', { preferred_language: 'zh', dishes: ['dan dan noodles'] });
    expect(store.preferred_language).toBe('zh');
    expect(store.dishes).toEqual(['dan dan noodles']);
  });

  it('refuses an unknown field before sending, with the field named', async () => {
    const before = env.sandbox.requests.length;
    const error = await client.locations
      // @ts-expect-error: not a changeable field
      .update('loc-1', { status: 'paused' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'validation_error', field: 'status', requestId: undefined });
    expect(env.sandbox.requests.length).toBe(before);
  });

  it('refuses a missing address part before sending, with a dotted field', async () => {
    const { state: _state, ...partial } = address(5);
    const error = await client.locations
      // @ts-expect-error: state is required
      .enroll({ partner_location_id: 'loc-5', name: 'X', address: partial })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation_error', field: 'address.state' });
  });

  it('refuses a bad preferred_language before sending', async () => {
    const error = await client.locations
      // @ts-expect-error: only en or zh
      .update('loc-1', { preferred_language: 'fr' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation_error', field: 'preferred_language' });
  });

  it('refuses rules that select by age before sending, as ProhibitedRuleError', async () => {
    const error = await client.locations
      // @ts-expect-error: not a rule the service allows
      .update('loc-1', { rules: { follower_range: { min: 1000 }, min_age: 21 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProhibitedRuleError);
    expect(error).toMatchObject({ status: 422, code: 'prohibited_rule', field: 'rules.min_age' });
  });

  it('pauses, resumes and terminates with the contract transitions', async () => {
    await client.locations.enroll({ partner_location_id: 'loc-life', name: 'Life', address: address(6) });
    expect((await client.locations.pause('loc-life')).status).toBe('paused');
    expect((await client.locations.pause('loc-life')).status).toBe('paused');
    expect((await client.locations.resume('loc-life')).status).toBe('active');
    expect((await client.locations.resume('loc-life')).status).toBe('active');
    expect((await client.locations.terminate('loc-life')).status).toBe('terminated');
    expect((await client.locations.terminate('loc-life')).status).toBe('terminated');
    const error = await client.locations.resume('loc-life').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'invalid_state', status: 409 });
  });

  it('reports the dashboard token as not enabled', async () => {
    const error = await client.locations.createDashboardToken('loc-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeatureNotEnabledError);
    expect(error).toMatchObject({ status: 403, code: 'feature_not_enabled' });
  });

  it('refuses an id with characters the contract does not allow, before sending', async () => {
    const error = await client.locations.get('has/slash').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation_error', field: 'partner_location_id' });
  });
});

describe('locations with the dashboard switched on', () => {
  it('creates a token that expires in 30 minutes', async () => {
    const env = await startSdkEnv('http', { features: { dashboardToken: true } });
    try {
      const client = env.client();
      await client.locations.enroll({ partner_location_id: 'dash', name: 'Dash', address: address(7) });
      const token = await client.locations.createDashboardToken('dash');
      const minutes = (Date.parse(token.expires_at) - env.sandbox.clock.now().getTime()) / 60_000;
      expect(token.token).toMatch(/.{16,}/);
      expect(minutes).toBe(30);
      expect(token.expires_at).toMatch(/Z$/);
    } finally {
      await env.close();
    }
  });
});
