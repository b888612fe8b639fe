import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortedError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  type PartnerClient,
} from '../../src/index.js';
import { address, startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';

const SUMMARY = '/partner/v1/summary';

describe('retries over a real HTTP port', () => {
  let env: SdkEnv;
  beforeAll(async () => {
    env = await startSdkEnv('http');
  });
  afterAll(() => env.close());

  function countRequests(path: string): number {
    return env.sandbox.requests.filter((r) => r.path === path).length;
  }

  function clientWithClock(options: Parameters<SdkEnv['client']>[0] = {}) {
    const clock = fakeClock();
    return { client: env.client({ clock, rateLimit: false, ...options }), sleeps: clock.sleeps };
  }

  it('retries a 500 twice and then succeeds, with jittered backoff under the cap', async () => {
    const { client, sleeps } = clientWithClock();
    env.sandbox.faults.next({ status: 500, times: 2, path: SUMMARY });
    const before = countRequests(SUMMARY);
    const summary = await client.reports.summary();
    expect(summary.generated_at).toBeTruthy();
    expect(countRequests(SUMMARY) - before).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it.each([502, 503, 504])('retries a %i for a safe call', async (status) => {
    const { client } = clientWithClock();
    env.sandbox.faults.next({ status, body: 'html', times: 1, path: SUMMARY });
    await expect(client.reports.summary()).resolves.toHaveProperty('generated_at');
  });

  it('gives up after maxRetries and reports the attempts', async () => {
    const { client } = clientWithClock({ maxRetries: 2 });
    env.sandbox.faults.next({ status: 500, times: 3, path: SUMMARY });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.attempts).toBe(3);
    expect(error.toJSON().attempts).toBe(3);
  });

  it('does not retry a 4xx', async () => {
    const { client, sleeps } = clientWithClock();
    const before = countRequests('/partner/v1/locations/unknown-x');
    await expect(client.locations.get('unknown-x')).rejects.toMatchObject({ status: 404, attempts: 1 });
    expect(countRequests('/partner/v1/locations/unknown-x') - before).toBe(1);
    expect(sleeps).toHaveLength(0);
  });

  it('waits exactly the Retry-After seconds on a 429, then repeats', async () => {
    const { client, sleeps } = clientWithClock();
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '3' }, times: 1, path: SUMMARY });
    await client.reports.summary();
    expect(sleeps).toEqual([3000]);
  });

  it('understands Retry-After as an HTTP date', async () => {
    const { client, sleeps } = clientWithClock();
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 5000);
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': at.toUTCString() }, times: 1, path: SUMMARY });
    await client.reports.summary();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(3500);
    expect(sleeps[0]).toBeLessThanOrEqual(6000);
  });

  it('fails at once when Retry-After is longer than the caller allows', async () => {
    const { client, sleeps } = clientWithClock({ rateLimit: { maxRetryAfter: 10_000 } });
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '120' }, times: 1, path: SUMMARY });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.attempts).toBe(1);
    expect(sleeps).toHaveLength(0);
  });

  it('stops a retry wait at once when the caller aborts', async () => {
    const controller = new AbortController();
    const client = env.client({
      rateLimit: false,
      clock: {
        now: Date.now,
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
            controller.abort(new Error('caller gave up'));
          }),
      },
    });
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    const error = await client.reports.summary({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toEqual(new Error('caller gave up'));
  });

  it('retries a safe call after the connection is dropped', async () => {
    const { client } = clientWithClock();
    env.sandbox.faults.next({ reset: true, times: 1, path: SUMMARY });
    await expect(client.reports.summary()).resolves.toHaveProperty('generated_at');
  });

  it('retries a safe call after a timeout, covering a slow body', async () => {
    const { client } = clientWithClock({ timeout: 150 });
    env.sandbox.faults.next({ hang: true, times: 1, path: SUMMARY });
    await expect(client.reports.summary()).resolves.toHaveProperty('generated_at');
    env.sandbox.faults.next({ hang: true, times: 3, path: SUMMARY });
    await expect(client.reports.summary()).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('the creator-samples decision is never sent twice', () => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv('http');
    client = env.client({ rateLimit: false });
    await client.locations.enroll({
      partner_location_id: 'samples',
      name: 'S',
      address: address(1),
      plan: { name: 'growth', videos_per_month: 4 },
    });
  });
  afterAll(() => env.close());

  const decisions = () =>
    env.sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/decision')).length;

  it('does not repeat new_batch after the connection drops mid-request', async () => {
    const batch = await client.creators.getSamples('samples');
    env.sandbox.faults.next({ reset: true, when: 'after', times: 1, path: /\/decision$/ });
    const before = decisions();
    const error = (await client.creators
      .decideSamples('samples', batch.batch_id, 'new_batch')
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveReachedServer).toBe(true);
    expect(decisions() - before).toBe(1);
    const current = await client.creators.getSamples('samples');
    expect(current.batch_id).not.toBe(batch.batch_id);
    expect(env.sandbox.inspect.sampleBatches(env.key, 'samples')).toHaveLength(2);
  });

  it('does not repeat the decision after a timeout', async () => {
    const batch = await client.creators.getSamples('samples');
    env.sandbox.faults.next({ hang: true, times: 1, path: /\/decision$/ });
    const before = decisions();
    await expect(
      client.creators.decideSamples('samples', batch.batch_id, 'approve', { timeout: 150 }),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(decisions() - before).toBe(1);
  });

  it('repeats the decision after a 503, which the service did not act on', async () => {
    const batch = await client.creators.getSamples('samples');
    env.sandbox.faults.next({ status: 503, times: 1, path: /\/decision$/ });
    const approved = await client.creators.decideSamples('samples', batch.batch_id, 'approve');
    expect(approved.status).toBe('approved');
  });
});
