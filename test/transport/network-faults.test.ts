import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, ConnectionError, PartnerClient, TimeoutError } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { address } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';

/** A fetch that fails the first `n` calls as if the connection was refused, then passes through. */
function refusingFirst(n: number, calls: string[] = []): typeof fetch {
  let left = n;
  return async (input, init) => {
    calls.push(String(input instanceof Request ? input.url : input));
    if (left-- > 0) {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      });
    }
    return fetch(input, init);
  };
}

describe('network failures', () => {
  const sandbox = createSandbox({ seed: 13 });
  const key = sandbox.issueKey();
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await sandbox.listen(0));
  });
  afterAll(() => close());

  const client = (options: ConstructorParameters<typeof PartnerClient>[0] = {}) =>
    new PartnerClient({ apiKey: key, baseUrl: url, rateLimit: false, clock: fakeClock(), ...options });

  it('repeats the creator-samples decision after a connection refused before sending', async () => {
    const setup = client();
    await setup.locations.enroll({
      partner_location_id: 'refused',
      name: 'R',
      address: address(1),
      plan: { name: 'starter', videos_per_month: 2 },
    });
    const batch = await setup.creators.getSamples('refused');
    const calls: string[] = [];
    const approved = await client({ fetch: refusingFirst(1, calls) }).creators.decideSamples(
      'refused',
      batch.batch_id,
      'approve',
    );
    expect(approved.status).toBe('approved');
    expect(calls).toHaveLength(2);
    expect(sandbox.inspect.sampleBatches(key, 'refused')).toHaveLength(1);
  });

  it('reports a refused connection as never having reached the service, after the retries', async () => {
    const error = (await client({ fetch: refusingFirst(10), maxRetries: 2 })
      .reports.summary()
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveReachedServer).toBe(false);
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('times out a response whose body stalls after the headers', async () => {
    const stalling: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"generated_at":'));
          signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const started = Date.now();
    const error = await client({ fetch: stalling, timeout: 200, maxRetries: 0 })
      .reports.summary()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out a body that ignores the abort (a partner fetch whose stream never ends nor errors)', async () => {
    const deaf: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"generated_at":'));
        },
      });
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(body, { status: response.status, headers });
    };
    const started = Date.now();
    const error = await client({ fetch: deaf, timeout: 200, maxRetries: 0 })
      .reports.summary()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops at once when the caller aborts during a request', async () => {
    sandbox.faults.next({ hang: true, path: '/partner/v1/summary' });
    const controller = new AbortController();
    const pending = client().reports.summary({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toEqual(new Error('shutting down'));
  });

  it('does not send at all when the signal is already aborted', async () => {
    const before = sandbox.requests.length;
    const error = await client()
      .reports.summary({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(sandbox.requests.length).toBe(before);
  });
});
