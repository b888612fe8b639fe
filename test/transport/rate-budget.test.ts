import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, PartnerClient } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';

const LIMIT = 30;
const WINDOW_MS = 2_000;

describe('the client-side rate budget against the sandbox over HTTP', () => {
  const sandbox = createSandbox({ seed: 5 });
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await sandbox.listen(0));
  });
  afterAll(() => close());

  it('shows the latest limit, remaining and reset as client.rateLimit', async () => {
    const key = sandbox.issueKey({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
    const client = new PartnerClient({ apiKey: key, baseUrl: url });
    expect(client.rateLimit).toBeUndefined();
    const { response } = await client.reports.summary().withResponse();
    expect(response.rateLimit).toMatchObject({ limit: LIMIT, remaining: LIMIT - 1 });
    expect(response.rateLimit?.resetAt).toBeInstanceOf(Date);
    expect(client.rateLimit).toMatchObject({ limit: LIMIT, remaining: LIMIT - 1 });
    await client.close();
  });

  it(`runs 3 windows of calls with 16 in flight, zero 429, using the budget to the full`, async () => {
    const key = sandbox.issueKey({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
    const waits: { reason: string; ms: number }[] = [];
    const client = new PartnerClient({
      apiKey: key,
      baseUrl: url,
      maxRetries: 0,
      telemetry: { startCall: () => ({ waited: (wait) => waits.push(wait) }) },
    });
    const calls = LIMIT * 3;
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < calls) {
          next++;
          await client.reports.summary();
        }
      }),
    );
    const elapsed = Date.now() - started;
    const ideal = (calls / LIMIT) * WINDOW_MS;
    expect(sandbox.requestCount({ status: 429 })).toBe(0);
    // A fixed window opens with the first request, so the last third starts after two windows.
    expect(elapsed).toBeGreaterThanOrEqual(2 * WINDOW_MS - 50);
    expect(elapsed).toBeLessThanOrEqual(ideal * 1.03);
    // Two window ends were waited for, each reported as a rate_budget wait.
    expect(waits.filter((w) => w.reason === 'rate_budget' && w.ms > WINDOW_MS / 4).length).toBeGreaterThan(0);
    expect(waits.every((w) => w.reason === 'rate_budget')).toBe(true);
    await client.close();
  }, 20_000);

  it('close() while calls wait for the budget rejects them as aborted by close, and sends nothing more', async () => {
    const key = sandbox.issueKey({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const client = new PartnerClient({ apiKey: key, baseUrl: url, maxRetries: 0 });
    await client.reports.summary();
    await client.reports.summary();
    const before = sandbox.requestCount();
    const waiting = [client.reports.summary(), client.reports.summary()].map((call) =>
      call.then(
        () => 'sent',
        (error: unknown) => error,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    const outcomes = await Promise.all(waiting);
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(AbortedError);
      expect((outcome as AbortedError).message).toMatch(/client\.close\(\) was called; nothing was sent/);
      expect((outcome as AbortedError).message).not.toMatch(/AbortSignal/);
    }
    expect(sandbox.requestCount()).toBe(before);
  });
});
