import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPartnerError, type PartnerClient } from '../../src/index.js';
import { address, startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

describe('nothing lost, nothing doubled under faults', () => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv('http');
    client = env.client({ maxRetries: 6 });
  });
  afterAll(() => env.close());

  it('enrolls 500 stores exactly once each while 10% of requests fail with 5xx or dropped connections', async () => {
    // 'after': the store is enrolled, then the answer is lost, so a retry must not create it again.
    env.sandbox.faults.random({
      rate: 0.1,
      kinds: ['internal_error', 'unavailable', 'bad_gateway', 'reset'],
      seed: 99,
      when: 'after',
    });
    const ids = Array.from({ length: 500 }, (_, i) => `chaos-${i}`);
    const outcomes = await Promise.allSettled(
      ids.map((id, i) => client.locations.enroll({ partner_location_id: id, name: `Chaos ${i}`, address: address(i) })),
    );
    env.sandbox.faults.clear();
    const failed = outcomes.filter((o) => o.status === 'rejected');
    for (const f of failed) expect(isPartnerError((f as PromiseRejectedResult).reason)).toBe(true);
    expect(failed).toHaveLength(0);
    const injected = env.sandbox.requests.filter((r) => r.fault).length;
    expect(injected).toBeGreaterThan(20);
    const stores = env.sandbox.inspect.stores(env.key);
    expect(stores.map((s) => s.partner_location_id).sort()).toEqual([...ids].sort());
    const summary = await client.reports.summary();
    expect(summary.locations.total).toBe(500);
  });
});
