/** Rows of one id in one enrollMany run: file order, the first decides, never two calls at once. */
import { describe, expect, it } from 'vitest';
import { realClock } from '../../src/core/config.js';
import { ConflictError, type EnrollLocationBody, type Location } from '../../src/index.js';
import { enrollMany, type EnrollOutcome, type EnrollRows } from '../../src/bulk/index.js';
import { TRANSPORTS, address, useSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';
import { ENROLLED_KEPT, SameIdRows } from '../../src/bulk/same-id.js';
import { overlapping, watchedFetch } from './calls.js';

const POST = { method: 'POST', path: '/partner/v1/locations' };
const store = (n: number, name = `Store ${n}`, extra: Partial<EnrollLocationBody> = {}): EnrollLocationBody => ({
  partner_location_id: `bulk-${n}`,
  name,
  address: address(n),
  ...extra,
});

let env: SdkEnv;
const startSdkEnv = useSdkEnv();

async function run(rows: EnrollRows, options: Parameters<typeof enrollMany>[2] = {}) {
  const watched = watchedFetch();
  // The real clock: a retry waits its back-off, as it does for a user, so a later row has the time to race it.
  const client = env.client({ clock: realClock, fetch: watched.fetch });
  const outcomes: EnrollOutcome[] = [];
  const summary = await enrollMany(client, rows, { ...options, onOutcome: (o) => void outcomes.push(o) });
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  return { summary, outcomes, byIndex, calls: watched.calls };
}

describe.each(TRANSPORTS)('rows with the same partner_location_id, over %s', (kind) => {
  it('a 500 on the first POST does not let a later row with another name win: the first row decides, the later is a conflict naming it, never sent', async () => {
    env = await startSdkEnv(kind);
    env.sandbox.faults.next({ ...POST, status: 500 });
    const rows = [
      store(0, 'Store 0, Main'),
      ...Array.from({ length: 8 }, (_, i) => store(i + 1)),
      store(0, 'A Different Name'),
    ];
    // The other rows come once the first POST has reached the sandbox (over a real port, requests
    // started together may arrive in any order), so that the 500 is bulk-0's first answer.
    async function* afterTheFirstPost() {
      yield rows[0] as EnrollLocationBody;
      while (env.sandbox.requestCount(POST) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      yield* rows.slice(1);
    }

    const { summary, outcomes, byIndex, calls } = await run(afterTheFirstPost()); // the default concurrency

    expect(env.sandbox.inspect.store(env.key, 'bulk-0')?.name).toBe('Store 0, Main');
    expect(summary.counts).toMatchObject({ created: 9, conflict: 1, failed: 0 });
    expect(outcomes).toHaveLength(10);
    const later = byIndex.get(9);
    expect(later).toMatchObject({ status: 'conflict', conflictsWith: 0, error: undefined, earlierRun: undefined });
    expect(later?.status === 'conflict' && later.message).toMatch(
      /^rows\[9\] has the partner_location_id "bulk-0" of rows\[0\] with other content, so it was not sent/,
    );
    expect(later?.status === 'conflict' && later.message).toContain('client.locations.update("bulk-0"');
    expect(calls.filter((c) => c.name === 'A Different Name')).toEqual([]);
    expect(calls.filter((c) => c.id === 'bulk-0').map((c) => c.status)).toEqual([500, 201]);
    expect(overlapping(calls)).toEqual([]);
  });

  it('a later identical row waits for the earlier one to end: sent in its turn after a failure, and once one has enrolled the store, the rest take its answer unsent', async () => {
    env = await startSdkEnv(kind);
    // The first row of bulk-0 fails for good (its three attempts); the later ones may start at once (three lanes).
    env.sandbox.faults.next({ ...POST, status: 500, times: 3 });
    const { byIndex, calls } = await run([store(0), store(0), store(0), store(0)], { concurrency: 3 });

    expect(byIndex.get(0)).toMatchObject({ status: 'failed', error: { status: 500, attempts: 3 } });
    expect(byIndex.get(1)).toMatchObject({ status: 'created', sameAs: undefined }); // tried in its turn: the first row had enrolled nothing
    for (const i of [2, 3])
      expect(byIndex.get(i)).toMatchObject({
        status: 'already_enrolled',
        sameAs: 1,
        requestId: undefined,
        location: { partner_location_id: 'bulk-0' },
      });
    // In file order, one at a time: each row's call starts after the earlier row's calls ended.
    expect(calls.map((c) => c.status)).toEqual([500, 500, 500, 201]);
    expect(overlapping(calls)).toEqual([]);
  });

  it('the first row decides even when it is invalid: a later row with other content is a conflict; an identical one is refused again, unsent', async () => {
    env = await startSdkEnv(kind);
    const bad = store(0, 'Bad', { address: { ...address(0), country: 'USA' } });
    const { byIndex, calls } = await run([bad, store(0), { ...bad }], { concurrency: 3 });
    expect(byIndex.get(0)).toMatchObject({ status: 'invalid', field: 'address.country' });
    expect(byIndex.get(1)).toMatchObject({ status: 'conflict', conflictsWith: 0 });
    expect(byIndex.get(2)).toMatchObject({ status: 'invalid', field: 'address.country' });
    expect(calls).toEqual([]);
  });

  it('same content means the same JSON value: key order and undefined members do not count, every field and every character does', async () => {
    env = await startSdkEnv(kind);
    const first = store(0, 'Store 0', { preferred_language: 'en' });
    const reordered = {
      preferred_language: 'en',
      address: { ...address(0) },
      name: 'Store 0',
      partner_location_id: 'bulk-0',
      time_zone: undefined,
    } as EnrollLocationBody;
    const otherLanguage = store(0, 'Store 0', { preferred_language: 'zh' }); // the service would say 200 and keep "en"
    const trailingSpace = store(0, 'Store 0 ', { preferred_language: 'en' }); // the service compares names exactly
    const { byIndex } = await run([first, reordered, otherLanguage, trailingSpace]);
    expect(byIndex.get(1)?.status).toBe('already_enrolled');
    expect(byIndex.get(1)?.contentHash).toBe(byIndex.get(0)?.contentHash);
    expect(byIndex.get(2)).toMatchObject({ status: 'conflict', conflictsWith: 0 });
    expect(byIndex.get(3)).toMatchObject({ status: 'conflict', conflictsWith: 0 });
    expect(byIndex.get(0)?.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('one store repeated on every row', () => {
  it('100,000 identical rows of one id: one call; every row has its own outcome, the later ones already_enrolled from the first', async () => {
    env = await startSdkEnv('msw');
    const row = store(0);
    const { summary, outcomes, calls } = await run(
      (function* () {
        for (let i = 0; i < 100_000; i++) yield { ...row, address: { ...row.address } };
      })(),
    );
    expect(calls.map((c) => c.status)).toEqual([201]);
    expect(summary.counts).toMatchObject({ created: 1, already_enrolled: 99_999, failed: 0, conflict: 0 });
    expect(outcomes.map((o) => o.index)).toEqual(Array.from({ length: 100_000 }, (_, i) => i));
    expect(outcomes[99_999]).toMatchObject({ status: 'already_enrolled', sameAs: 0, requestId: undefined });
  }, 120_000);

  it('the stores enrolled are kept for the most recent ids only: an id past them is sent again (the service answers already enrolled)', () => {
    const ids = new SameIdRows(2);
    const location = (id: string) => ({ partner_location_id: id }) as unknown as Location;
    for (const [i, id] of ['a', 'b', 'a', 'c'].entries()) ids.enrolledBy(id, { index: i, location: location(id) });
    expect(ids.enrolledRow('a')).toBeUndefined();
    expect(ids.enrolledRow('b')).toEqual({ index: 1, location: location('b') });
    expect(ids.enrolledRow('c')).toEqual({ index: 3, location: location('c') });
    expect(ENROLLED_KEPT).toBe(1024);
  });
});

describe('resume compares content, not only the id', () => {
  it('skips the first row, and still reports the later renamed row as a conflict with it', async () => {
    env = await startSdkEnv('msw');
    const rows = [store(0, 'Store 0, Main'), store(1), store(0, 'A Different Name')];
    const first = await run(rows);
    expect(first.summary.counts).toMatchObject({ created: 2, conflict: 1 });
    const report = first.outcomes.map(
      (o) => JSON.parse(JSON.stringify(o)) as { partner_location_id: string; status: string },
    );

    const again = await run(rows, { resume: report });
    expect(again.summary.counts).toMatchObject({ skipped: 2, conflict: 1 });
    expect(again.byIndex.get(2)).toMatchObject({ status: 'conflict', conflictsWith: 0 });
    expect(again.calls).toEqual([]);
  });

  it('a row whose id the earlier run enrolled with other content is a conflict naming that record, not sent', async () => {
    env = await startSdkEnv('msw');
    const first = await run([store(0, 'Store 0, Main')]);
    const renamed = await run([store(0, 'A Different Name'), store(1)], { resume: first.outcomes });
    const clash = renamed.byIndex.get(0);
    expect(clash).toMatchObject({ status: 'conflict', conflictsWith: undefined, error: undefined });
    expect(clash?.status === 'conflict' && clash.earlierRun).toEqual({
      partner_location_id: 'bulk-0',
      status: 'created',
      contentHash: first.outcomes[0]?.contentHash,
    });
    expect(clash?.status === 'conflict' && clash.message).toMatch(
      /^The earlier run \(resume\) enrolled "bulk-0" with other content than rows\[0\]/,
    );
    expect(renamed.calls.map((c) => c.id)).toEqual(['bulk-1']);
  });

  it('a record without contentHash (an older report) skips nothing: the row is sent and the service decides', async () => {
    env = await startSdkEnv('msw');
    await run([store(0), store(1)]);
    const older = [
      { partner_location_id: 'bulk-0', status: 'created' },
      { partner_location_id: 'bulk-1', status: 'created' },
    ];
    const { byIndex, calls } = await run([store(0), store(1, 'Renamed')], { resume: older });
    expect(byIndex.get(0)?.status).toBe('already_enrolled');
    const renamed = byIndex.get(1);
    expect(renamed).toMatchObject({ status: 'conflict', conflictsWith: undefined, earlierRun: undefined });
    expect(renamed?.status === 'conflict' && renamed.error).toBeInstanceOf(ConflictError);
    // The two ids run side by side, so their answers may come in either order.
    expect(calls.map((c) => [c.id, c.status]).sort()).toEqual([
      ['bulk-0', 200],
      ['bulk-1', 409],
    ]);
  });
});

describe('enrollMany options: defaults follow what was given', () => {
  it('refuses a total that is not a count, and a total that contradicts the array given, naming both', async () => {
    env = await startSdkEnv('msw');
    const client = env.client();
    await expect(enrollMany(client, [store(0), store(1)], { total: 3 })).rejects.toThrow(
      'enrollMany() was given an array of 2 rows and the option total 3; leave total out for an array (it is rows.length).',
    );
    for (const total of [-1, 1.5, Number.NaN]) {
      await expect(enrollMany(client, [], { total })).rejects.toThrow(
        `The option total of enrollMany() must be a whole number, 0 or more; got ${total}.`,
      );
    }
    const progress: Array<number | undefined> = [];
    await enrollMany(client, [store(0)], { total: 1, onProgress: (p) => progress.push(p.total) });
    await enrollMany(
      client,
      (function* () {
        yield store(1);
      })(),
      { total: 7, onProgress: (p) => progress.push(p.total) },
    );
    expect(progress).toEqual([1, 7]);
    expect(env.sandbox.requestCount(POST)).toBe(2);
  });
});

describe('the edges of deciding a row without sending it', () => {
  it('rows without an id are never compared with each other: each is refused for its missing id', async () => {
    env = await startSdkEnv('msw');
    const noId = (name: string) => ({ name, address: address(0) }) as unknown as EnrollLocationBody;
    const { byIndex, calls } = await run([noId('One'), noId('Two')], { concurrency: 1 });
    expect(byIndex.get(0)).toMatchObject({
      status: 'invalid',
      field: 'partner_location_id',
      partner_location_id: undefined,
    });
    expect(byIndex.get(1)).toMatchObject({ status: 'invalid', field: 'partner_location_id' });
    expect(calls).toEqual([]);
  });

  it('resume: only an enrolled status with a string id and hash counts, and the first such record of an id', async () => {
    env = await startSdkEnv('msw');
    const first = await run([store(0), store(1), store(2), store(3)]);
    const hash = (i: number) => first.outcomes.find((o) => o.index === i)?.contentHash;
    const records = [
      { partner_location_id: 'bulk-0', status: 'failed', contentHash: hash(0) }, // not enrolled: sent again
      { partner_location_id: 'bulk-1', status: 'created', contentHash: hash(1) }, // the first record of bulk-1 decides
      { partner_location_id: 'bulk-1', status: 'created', contentHash: 'f'.repeat(64) },
      { partner_location_id: 'bulk-2', status: 'created', contentHash: 42 as unknown as string }, // not a hash: as if none
      { partner_location_id: 7 as unknown as string, status: 'created', contentHash: hash(3) },
      { status: 'created', contentHash: hash(3) } as { partner_location_id?: string; status: string },
      null as unknown as { status: string },
    ];
    const { byIndex, calls } = await run([store(0), store(1), store(2), store(3)], { resume: records, concurrency: 1 });
    expect([0, 1, 2, 3].map((i) => byIndex.get(i)?.status)).toEqual([
      'already_enrolled',
      'skipped',
      'already_enrolled',
      'already_enrolled',
    ]);
    expect(calls.map((c) => c.id)).toEqual(['bulk-0', 'bulk-2', 'bulk-3']);
  });

  it('takes a total of 0 for an empty array', async () => {
    env = await startSdkEnv('msw');
    await expect(enrollMany(env.client(), [], { total: 0 })).resolves.toMatchObject({ total: 0 });
  });
});

describe('SameIdRows', () => {
  it('a row that arrives after the first of its id ended still waits for the ones queued before it', async () => {
    const ids = new SameIdRows();
    const order: string[] = [];
    const a = ids.turn('x');
    const b = ids.turn('x');
    const c = ids.turn('x');
    for (const [name, turn] of [
      ['b', b],
      ['c', c],
    ] as const)
      void turn.ready.then(() => order.push(name));
    await a.ready;
    a.end();
    const d = ids.turn('x');
    void d.ready.then(() => order.push('d'));
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['b']);
    b.end();
    await c.ready;
    await Promise.resolve();
    expect(order).toEqual(['b', 'c']);
    c.end();
    await d.ready;
    expect(order).toEqual(['b', 'c', 'd']);
    expect(ids.firstOf('x', { index: 0, contentHash: 'h0' })).toEqual({ index: 0, contentHash: 'h0' });
    expect(ids.firstOf('x', { index: 5, contentHash: 'h5' })).toEqual({ index: 0, contentHash: 'h0' });
  });
});
