/**
 * The SDK against every dialect the sandbox speaks, over a real port: rate-limit headers in other
 * forms (IETF draft-10, an epoch reset, two policies), a burst limit the headers never mention
 * (429 with Retry-After while budget remains), 503s with Retry-After, and slow list pages.
 */
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index.js';
import { createSandbox, type SandboxOptions } from '../../src/testing/index.js';

type DialectName = NonNullable<SandboxOptions['dialect']>;

async function run(dialect: DialectName, calls: number, rateLimit = { limit: 30, windowMs: 2_000 }) {
  const sandbox = createSandbox({ seed: 21, dialect });
  const key = sandbox.issueKey({ rateLimit });
  const { url, close } = await sandbox.listen(0);
  const waits: string[] = [];
  const observed = new PartnerClient({
    apiKey: key,
    baseUrl: url,
    telemetry: { startCall: () => ({ waited: (w) => void waits.push(w.reason) }) },
  });
  try {
    let next = 0;
    const failures: unknown[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < calls) {
          next++;
          await observed.reports.summary().catch((e: unknown) => failures.push(e));
        }
      }),
    );
    return { sandbox, failures, ms: Date.now() - started, waits, tooMany: sandbox.requestCount({ status: 429 }) };
  } finally {
    await observed.close();
    await close();
  }
}

describe('the SDK against every sandbox dialect over a real port', () => {
  it.each(['contract', 'draft10', 'epoch-reset'] as const)(
    '%s: 45 calls at 30 per 2 s, all succeed with zero 429, paced by the window',
    async (dialect) => {
      const r = await run(dialect, 45);
      expect(r.failures).toEqual([]);
      expect(r.tooMany).toBe(0);
      expect(r.waits).toContain('rate_budget');
    },
  );

  it('two-policies: paced by the shorter window the headers advertise, zero 429', async () => {
    const r = await run('two-policies', 40, { limit: 60, windowMs: 60_000 });
    expect(r.failures).toEqual([]);
    expect(r.tooMany).toBe(0);
  });

  it('burst: a hidden limit answers 429 with Retry-After while budget remains; every call succeeds after the pause', async () => {
    const r = await run('burst', 25, { limit: 100, windowMs: 60_000 });
    expect(r.failures).toEqual([]);
    expect(r.tooMany).toBeGreaterThan(0);
    expect(r.waits.some((w) => w === 'retry_after' || w === 'shared_pause')).toBe(true);
    // Resumed at once after each 2 s pause (not the 60 s window): 25 calls at 10 per 2 s.
    expect(r.ms).toBeLessThan(15_000);
  });

  it('unavailable: 503s with Retry-After are waited out exactly and every call succeeds', async () => {
    const r = await run('unavailable', 8);
    expect(r.failures).toEqual([]);
    expect(r.sandbox.requestCount({ status: 503 })).toBeGreaterThan(0);
    expect(r.waits).toContain('retry_after');
  });

  it('slow-pages: a list walk over slow pages completes within the per-attempt timeout', async () => {
    const sandbox = createSandbox({ seed: 22, dialect: 'slow-pages' });
    const key = sandbox.issueKey();
    sandbox.populate(key, { locations: 2, reservationsPerLocation: 5 });
    const { url, close } = await sandbox.listen(0);
    const client = new PartnerClient({ apiKey: key, baseUrl: url, timeout: 2_000 });
    try {
      let n = 0;
      for await (const booking of client.reservations.list({ limit: 4 })) if (booking.reservation_id) n++;
      expect(n).toBe(10);
    } finally {
      await client.close();
      await close();
    }
  });
});
