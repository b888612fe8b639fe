import { realClock } from '../../src/core/config.js';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  PartnerClient,
  ProhibitedRuleError,
  ValidationError,
  type EnrollLocationBody,
} from '../../src/index.js';
import { enrollMany, type EnrollOutcome, type EnrollProgress } from '../../src/bulk/index.js';
import { TRANSPORTS, address, useSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';

const POST = { method: 'POST', path: '/partner/v1/locations' };

const store = (n: number, extra: Partial<EnrollLocationBody> = {}): EnrollLocationBody => ({
  partner_location_id: `store-${n}`,
  name: `Store ${n}`,
  address: address(n),
  ...extra,
});
const stores = (from: number, count: number) => Array.from({ length: count }, (_, i) => store(from + i));

/** Each outcome's index must appear exactly once, and every row must have one. */
function expectOneOutcomePerRow(outcomes: EnrollOutcome[], rows: number): void {
  expect(outcomes.map((o) => o.index).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i));
}

let env: SdkEnv;
const startSdkEnv = useSdkEnv();

describe.each(TRANSPORTS)('enrollMany over %s', (kind) => {
  it('ends every row in exactly one outcome: created, already enrolled, invalid, prohibited, conflict, failed', async () => {
    env = await startSdkEnv(kind);
    const client = env.client();
    await client.locations.enroll(store(2)); // the same store: 200
    await client.locations.enroll(store(5, { name: 'Old name' })); // another name: 409
    // The first row sent fails three times (the first attempt and both retries).
    env.sandbox.faults.next({ ...POST, status: 500, times: 3 });
    const rows: EnrollLocationBody[] = [
      store(1), // failed after retries (concurrency 1: it is the first row sent)
      store(2),
      store(3, { address: { ...address(3), country: 'USA' } }),
      store(4, { rules: { follower_range: { min: 1000 }, min_age: 21 } as never }),
      store(5),
      store(6),
    ];
    const outcomes: EnrollOutcome[] = [];
    const before = env.sandbox.requestCount(POST);

    const summary = await enrollMany(client, rows, { concurrency: 1, onOutcome: (o) => void outcomes.push(o) });

    expectOneOutcomePerRow(outcomes, rows.length);
    const byId = new Map(outcomes.map((o) => [o.partner_location_id, o]));
    const failed = byId.get('store-1');
    expect(failed).toMatchObject({ status: 'failed', index: 0, row: rows[0] });
    if (failed?.status !== 'failed') throw new Error('unreachable');
    expect(failed.error).toBeInstanceOf(InternalServerError);
    expect(failed.error.attempts).toBe(3);
    // A 500 leaves open whether the service acted: the store read back settles it.
    expect(failed.message).toBe(
      `${failed.error.message} Reading store-1 afterwards found no store: it was not enrolled, and enrolling it again is safe.`,
    );
    expect(failed).toMatchObject({ mayBeEnrolled: false, readError: undefined });

    const same = byId.get('store-2');
    expect(same).toMatchObject({
      status: 'already_enrolled',
      location: { partner_location_id: 'store-2', name: 'Store 2' },
    });
    if (same?.status === 'already_enrolled') expect(same.requestId).toMatch(/.+/);

    const invalid = byId.get('store-3');
    expect(invalid).toMatchObject({ status: 'invalid', field: 'address.country' });
    if (invalid?.status !== 'invalid') throw new Error('unreachable');
    expect(invalid.error).toBeInstanceOf(ValidationError);
    expect(invalid.error.requestId).toBeUndefined(); // refused before sending

    const prohibited = byId.get('store-4');
    expect(prohibited).toMatchObject({ status: 'invalid', field: 'rules.min_age' });
    if (prohibited?.status === 'invalid') expect(prohibited.error).toBeInstanceOf(ProhibitedRuleError);

    const conflict = byId.get('store-5');
    expect(conflict?.status).toBe('conflict');
    if (conflict?.status !== 'conflict') throw new Error('unreachable');
    expect(conflict.error).toBeInstanceOf(ConflictError);
    expect(conflict.message).toContain('client.locations.update("store-5"');

    expect(byId.get('store-6')).toMatchObject({
      status: 'created',
      location: { partner_location_id: 'store-6', status: 'active' },
    });

    expect(summary).toMatchObject({
      total: 6,
      aborted: false,
      counts: { created: 1, already_enrolled: 1, skipped: 0, invalid: 2, conflict: 1, failed: 1, not_attempted: 0 },
    });
    expect(summary.elapsedMs).toBeGreaterThanOrEqual(0);
    // Invalid rows were never sent: 3 attempts for store-1, one call each for stores 2, 5 and 6.
    expect(env.sandbox.requestCount(POST) - before).toBe(6);
    expect(env.sandbox.inspect.store(env.key, 'store-5')?.name).toBe('Old name');
  });

  it('reads a generator lazily: never more rows than lanes ahead of the outcomes, and waits for a slow onOutcome', async () => {
    env = await startSdkEnv(kind);
    const client = env.client();
    let read = 0;
    let delivered = 0;
    let mostAhead = 0;
    function* rows() {
      for (let n = 0; n < 60; n++) {
        read += 1;
        mostAhead = Math.max(mostAhead, read - delivered);
        yield store(n);
      }
    }
    const summary = await enrollMany(client, rows(), {
      concurrency: 4,
      onOutcome: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        delivered += 1;
      },
    });
    expect(summary).toMatchObject({ total: 60, counts: { created: 60 } });
    expect(read).toBe(60);
    expect(mostAhead).toBeLessThanOrEqual(4);
    expect(mostAhead).toBeGreaterThan(1); // the lanes did run side by side
  });

  it('takes an async iterable, and reports progress after every outcome', async () => {
    env = await startSdkEnv(kind);
    const client = env.client();
    async function* rows() {
      for (let n = 0; n < 12; n++) yield n === 7 ? store(n, { name: '' }) : store(n);
    }
    const progress: EnrollProgress[] = [];
    const summary = await enrollMany(client, rows(), { total: 12, onProgress: (p) => progress.push(p) });
    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const p of progress) {
      expect(p.total).toBe(12);
      expect(Object.values(p.counts).reduce((a, b) => a + b, 0)).toBe(p.done);
      expect(p.inFlight).toBeGreaterThanOrEqual(0);
      expect(p.inFlight).toBeLessThanOrEqual(16);
    }
    expect(progress.at(-1)?.counts).toEqual(summary.counts);
    expect(summary.counts).toMatchObject({ created: 11, invalid: 1 });

    // An array gives its own total; a generator without `total` has none.
    const fromArray: EnrollProgress[] = [];
    await enrollMany(client, stores(100, 3), { onProgress: (p) => fromArray.push(p) });
    expect(fromArray.map((p) => p.total)).toEqual([3, 3, 3]);
    const fromGenerator: EnrollProgress[] = [];
    await enrollMany(client, stores(200, 2).values(), { onProgress: (p) => fromGenerator.push(p) });
    expect(fromGenerator.map((p) => p.total)).toEqual([undefined, undefined]);
  });
});

describe('enrollMany under the key budget', () => {
  it('spends a small budget through the client limiter with zero 429', async () => {
    // 20 rows, 16 lanes, 8 calls a second: the limiter holds the lanes' calls for the next window.
    env = await startSdkEnv('http', { rateLimit: { limit: 8, windowMs: 1000 } });
    // Real time: the sandbox's windows are real-time, so the client's budget waits must be too.
    const client = env.client({ clock: realClock });
    const summary = await enrollMany(client, stores(0, 20));
    expect(summary.counts.created).toBe(20);
    expect(env.sandbox.requestCount({ status: 429 })).toBe(0);
    expect(env.sandbox.requestCount(POST)).toBe(20);
  });

  it('stops on abort: calls waiting for the budget are cancelled, unsent rows are not_attempted, and a resumed run enrolls only the rest', async () => {
    // 5 calls a minute: the sixth row waits for the budget until the signal stops it.
    env = await startSdkEnv('http', { rateLimit: { limit: 5, windowMs: 60_000 } });
    const client = env.client({ clock: realClock });
    const rows = stores(0, 20);
    const controller = new AbortController();
    const first: EnrollOutcome[] = [];
    const started = Date.now();
    const summary = await enrollMany(client, rows, {
      concurrency: 3,
      signal: controller.signal,
      onOutcome: (o) => void first.push(o),
      onProgress: (p) => {
        // A moment later, so the rows after the fifth are surely waiting for the budget (under load
        // a worker may not have reached the wait at the very moment the fifth answer arrives).
        if (p.counts.created === 5) setTimeout(() => controller.abort(new Error('operator stopped')), 300);
      },
    });
    expect(Date.now() - started).toBeLessThan(5_000); // not the 60 s window
    expectOneOutcomePerRow(first, 20);
    expect(summary).toMatchObject({ total: 20, aborted: true, counts: { created: 5, not_attempted: 15 } });
    const cancelled = first.filter((o) => o.status === 'not_attempted' && o.error !== undefined);
    expect(cancelled.length).toBeGreaterThan(0);
    for (const o of cancelled) if (o.status === 'not_attempted') expect(o.error).toBeInstanceOf(AbortedError);
    expect(first.filter((o) => o.status === 'not_attempted').every((o) => o.message.length > 0)).toBe(true);
    expect(env.sandbox.requestCount(POST)).toBe(5);
    expect(env.sandbox.requestCount({ status: 429 })).toBe(0);

    // Resumed from the first run's outcomes, as read back from a JSON-lines report, on a fresh budget.
    const key = env.sandbox.issueKey({ account: env.key, rateLimit: { limit: 100, windowMs: 60_000 } });
    const second = new PartnerClient({ apiKey: key, baseUrl: env.baseUrl, clock: fakeClock() });
    try {
      const report = first.map((o) => JSON.parse(JSON.stringify(o)) as { partner_location_id: string; status: string });
      const outcomes: EnrollOutcome[] = [];
      const resumed = await enrollMany(second, rows, { resume: report, onOutcome: (o) => void outcomes.push(o) });
      expect(resumed.counts).toMatchObject({ skipped: 5, created: 15, already_enrolled: 0, not_attempted: 0 });
      expectOneOutcomePerRow(outcomes, 20);
      expect(env.sandbox.requestCount(POST)).toBe(20);
      const skipped = outcomes.filter((o) => o.status === 'skipped').map((o) => o.partner_location_id);
      expect(skipped.sort()).toEqual(
        first
          .filter((o) => o.status === 'created')
          .map((o) => o.partner_location_id)
          .sort(),
      );

      // A third run resumed from the second's outcomes skips everything and sends nothing.
      const third = await enrollMany(second, rows, { resume: outcomes });
      expect(third.counts.skipped).toBe(20);
      expect(env.sandbox.requestCount(POST)).toBe(20);
    } finally {
      await second.close();
    }
  });

  it('with a signal already aborted, sends nothing and reports every row not_attempted', async () => {
    env = await startSdkEnv('msw');
    const outcomes: EnrollOutcome[] = [];
    const summary = await enrollMany(env.client(), stores(0, 4), {
      signal: AbortSignal.abort(),
      onOutcome: (o) => void outcomes.push(o),
    });
    expect(summary).toMatchObject({ aborted: true, total: 4, counts: { not_attempted: 4 } });
    expect(outcomes.every((o) => o.status === 'not_attempted' && o.error === undefined)).toBe(true);
    expect(env.sandbox.requestCount(POST)).toBe(0);
  });
});

describe('enrollMany when the run itself fails', () => {
  it('rejects with AuthenticationError when the key is refused, without trying every row', async () => {
    env = await startSdkEnv('msw');
    const client = new PartnerClient({ apiKey: 'crp_test_not-a-key', baseUrl: env.baseUrl, clock: fakeClock() });
    try {
      const outcomes: EnrollOutcome[] = [];
      const error = await enrollMany(client, stores(0, 50), { onOutcome: (o) => void outcomes.push(o) }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AuthenticationError);
      // Before the first response the limiter sends one call at a time, and releases the next as the
      // first one's answer arrives: at most that second call went out as well.
      expect(env.sandbox.requestCount(POST)).toBeLessThanOrEqual(2);
      // Outcomes come in the order rows finish, so either of the two sent may be reported first;
      // the rows after them were never sent.
      const failed = outcomes.filter((o) => o.status === 'failed').map((o) => o.index);
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed.every((index) => index === 0 || index === 1)).toBe(true);
      expect(outcomes.every((o) => o.status === 'failed' || o.status === 'not_attempted')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('rejects with the error of an onOutcome that throws, and stops sending', async () => {
    env = await startSdkEnv('msw');
    const disk = new Error('disk full');
    let calls = 0;
    const error = await enrollMany(env.client(), stores(0, 40), {
      concurrency: 2,
      onOutcome: () => {
        calls += 1;
        if (calls === 3) throw disk;
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(disk);
    expect(calls).toBe(3);
    expect(env.sandbox.requestCount(POST)).toBeLessThanOrEqual(5);
  });

  it('rejects with the error of a source that throws, after the rows already sent have their outcome', async () => {
    env = await startSdkEnv('msw');
    const broken = new Error('CSV line 4: unclosed quote');
    async function* rows() {
      yield store(0);
      yield store(1);
      yield store(2);
      throw broken;
    }
    const outcomes: EnrollOutcome[] = [];
    const error = await enrollMany(env.client(), rows(), { onOutcome: (o) => void outcomes.push(o) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(broken);
    expect(outcomes.map((o) => o.status)).toEqual(['created', 'created', 'created']);
  });

  it('refuses bad options and rows that are not iterable with ConfigurationError', async () => {
    env = await startSdkEnv('msw');
    const client = env.client();
    await expect(enrollMany(client, [], { concurrency: 0 })).rejects.toThrow(ConfigurationError);
    await expect(enrollMany(client, [], { concurrency: 1.5 })).rejects.toThrow(/whole number from 1 to 1000/);
    await expect(enrollMany(client, 42 as never)).rejects.toThrow(ConfigurationError);
    await expect(enrollMany(client, 'rows' as never)).rejects.toThrow(/array, an iterable or an async iterable/);
    expect(await enrollMany(client, [])).toMatchObject({ total: 0, aborted: false, counts: { created: 0 } });
  });

  it('refuses a first argument that is not a client (the rows of the old client.locations.enrollMany(rows)), sending nothing', async () => {
    env = await startSdkEnv('msw');
    for (const notClient of [undefined, stores(0, 2), { locations: {} }]) {
      await expect(enrollMany(notClient as never, stores(0, 2))).rejects.toThrow(
        new ConfigurationError(
          'enrollMany(client, rows, options?) takes the PartnerClient to enroll through as its first argument.',
        ),
      );
    }
    expect(env.sandbox.requestCount(POST)).toBe(0);
  });
});
