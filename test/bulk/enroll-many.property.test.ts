/**
 * enrollMany against the sandbox with random files: repeated ids (same and other content), bad
 * rows, 5xx and dropped connections on random POSTs (before or after the service acted, often on
 * every attempt: 0 to 2 retries), reads of the store that fail too, random concurrency, a random
 * abort, then a resume from the outcomes so far. The outcomes must say what is true: a row
 * reported enrolled is there with its content; a store that is there has an outcome that says
 * so, or one that says it may be. FC_NUM_RUNS=500 for a longer run, FC_SEED to
 * replay one; fast-check prints the seed and the shrunk counterexample on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnrollLocationBody } from '../../src/index.js';
import { PartnerClient } from '../../src/index.js';
import { enrollMany, type EnrollOutcome, type EnrollStatus } from '../../src/bulk/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { address } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { overlapping, watchedFetch, type Call } from './calls.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';

const RUNS = fastCheckRuns(100);

/** A row: its id and name drawn from small pools so that they repeat; `bad` 1 or 2 is refused before sending. */
interface RowSpec {
  id: number;
  name: number;
  bad: 0 | 1 | 2;
}
interface Scenario {
  rows: RowSpec[];
  concurrency: number;
  faultRate: number;
  faultSeed: number;
  faultWhen: 'before' | 'after';
  /** The client's retries in the first run: 0 leaves every fault unrepeated. */
  maxRetries: number;
  /** The first this many reads of a store (after an unclear failure) answer 503. */
  readFaults: number;
  /** Abort after this many outcomes; undefined: never. */
  abortAfter: number | undefined;
}

function bodyOf({ id, name, bad }: RowSpec): EnrollLocationBody {
  return {
    partner_location_id: `p-${id}`,
    name: bad === 2 ? '' : `Name ${name}`,
    address: { ...address(id), country: bad === 1 ? 'USA' : 'US' },
  };
}

const rowSpec = fc.record({
  id: fc.integer({ min: 0, max: 4 }),
  name: fc.integer({ min: 0, max: 1 }),
  bad: fc.constantFrom<0 | 1 | 2>(0, 0, 0, 0, 1, 2),
});
const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    rows: fc.array(rowSpec, { minLength: 1, maxLength: 24 }),
    concurrency: fc.integer({ min: 1, max: 8 }),
    faultRate: fc.constantFrom(0, 0.2, 0.5, 0.8),
    faultSeed: fc.integer({ min: 1, max: 1_000_000 }),
    faultWhen: fc.constantFrom<'before' | 'after'>('before', 'after'),
    maxRetries: fc.integer({ min: 0, max: 2 }),
    readFaults: fc.constantFrom(0, 0, 1, 3),
    abortAt: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ abortAt, ...s }) => ({
    ...s,
    abortAfter: abortAt === undefined ? undefined : abortAt % (s.rows.length + 1),
  }));

const ENROLLED: ReadonlySet<EnrollStatus> = new Set(['created', 'already_enrolled', 'skipped']);

/** Run enrollMany over a watched in-process fetch; the outcomes by index, and every call. */
async function runOnce(
  sandbox: ReturnType<typeof createSandbox>,
  key: string,
  rows: EnrollLocationBody[],
  options: Parameters<typeof enrollMany>[2],
  maxRetries?: number,
) {
  const watched = watchedFetch((request) => sandbox.handle(request));
  const client = new PartnerClient({
    apiKey: key,
    baseUrl: 'https://sandbox.crp.test',
    clock: fakeClock(),
    fetch: watched.fetch,
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  const outcomes: EnrollOutcome[] = [];
  try {
    const summary = await enrollMany(client, rows, {
      ...options,
      onOutcome: async (o) => {
        outcomes.push(o);
        await options?.onOutcome?.(o);
      },
    });
    return { summary, outcomes, calls: watched.calls };
  } finally {
    await client.close();
  }
}

/** The invariants of one scenario; throws (an expect) on the first one broken. */
async function check(s: Scenario): Promise<void> {
  const sandbox = createSandbox({ seed: 3 });
  const key = sandbox.issueKey();
  const rows = s.rows.map(bodyOf);
  const content = s.rows.map((r) => JSON.stringify(bodyOf(r)));
  const firstOf = new Map<string, number>();
  rows.forEach((row, i) => {
    if (!firstOf.has(row.partner_location_id)) firstOf.set(row.partner_location_id, i);
  });
  const first = (i: number) => firstOf.get(rows[i]?.partner_location_id as string) as number;

  /** Every row one outcome; a row with other content than its id's first is a conflict naming it; no call for one id overlaps another; every call sends the first row's content. */
  const common = (outcomes: EnrollOutcome[], calls: Call[]) => {
    expect(outcomes.map((o) => o.index).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i));
    for (const o of outcomes) {
      if (content[o.index] !== content[first(o.index)])
        expect(o).toMatchObject({ status: 'conflict', conflictsWith: first(o.index), error: undefined });
      else expect(o.status).not.toBe('conflict');
    }
    expect(overlapping(calls)).toEqual([]);
    for (const call of calls) expect(call.name).toBe(rows[firstOf.get(call.id) as number]?.name);
    // Once a row of an id has enrolled it in this run, every later identical row takes that answer, unsent.
    const byIndex = [...outcomes].sort((a, b) => a.index - b.index);
    const enrolledBy = new Map<string, number>();
    for (const o of byIndex) {
      const id = o.partner_location_id as string;
      const by = enrolledBy.get(id);
      if (by !== undefined && content[o.index] === content[by])
        expect(o).toMatchObject({ status: 'already_enrolled', sameAs: by, requestId: undefined });
      else if ((o.status === 'created' || o.status === 'already_enrolled') && o.sameAs === undefined)
        enrolledBy.set(id, o.index);
      else if (o.status === 'created' || o.status === 'already_enrolled')
        throw new Error(`rows[${o.index}] took the answer of rows[${o.sameAs}], which did not enroll ${id}`);
    }
  };
  /** The first row decides: a store, when there is one, is its id's first row. */
  const stored = () => {
    for (const [id, i] of firstOf) {
      const store = sandbox.inspect.store(key, id);
      if (store)
        expect({ name: store.name, address: store.address }).toEqual({
          name: rows[i]?.name,
          address: rows[i]?.address,
        });
    }
  };

  // The first run: faults on random POSTs, perhaps stopped.
  sandbox.faults.random({
    rate: s.faultRate,
    seed: s.faultSeed,
    when: s.faultWhen,
    method: 'POST',
    path: '/partner/v1/locations',
    kinds: ['internal_error', 'bad_gateway', 'unavailable', 'gateway_timeout', 'empty', 'reset'],
  });
  if (s.readFaults > 0)
    sandbox.faults.next({ method: 'GET', path: /^\/partner\/v1\/locations\/[^/]+$/, status: 503, times: s.readFaults });
  const controller = new AbortController();
  let seen = 0;
  const one = await runOnce(
    sandbox,
    key,
    rows,
    {
      concurrency: s.concurrency,
      signal: controller.signal,
      onOutcome: () => {
        if (++seen === s.abortAfter) controller.abort(new Error('stopped by the test'));
      },
    },
    s.maxRetries,
  );
  common(one.outcomes, one.calls);
  stored();
  for (const o of one.outcomes) {
    if (o.status === 'conflict') continue;
    const bad = s.rows[o.index]?.bad !== 0;
    const allowed: EnrollStatus[] = bad
      ? ['invalid', 'not_attempted']
      : ['created', 'already_enrolled', 'failed', 'not_attempted'];
    expect(allowed).toContain(o.status);
    if (!one.summary.aborted) expect(o.status).not.toBe('not_attempted');
    if (ENROLLED.has(o.status)) {
      const store = sandbox.inspect.store(key, o.partner_location_id as string);
      expect({ name: store?.name, address: store?.address }).toEqual({
        name: rows[o.index]?.name,
        address: rows[o.index]?.address,
      });
    }
  }
  // A store that is there was reported enrolled, or some outcome of its id says it may be: a
  // failure the read could not settle, or a call the abort cancelled on the wire.
  const saysItMayBe = (o: EnrollOutcome) =>
    ENROLLED.has(o.status) ||
    (o.status === 'failed' && o.mayBeEnrolled) ||
    (o.status === 'not_attempted' && o.error !== undefined);
  for (const id of firstOf.keys()) {
    if (sandbox.inspect.store(key, id))
      expect(one.outcomes.filter((o) => o.partner_location_id === id).some(saysItMayBe), `${id} is enrolled`).toBe(
        true,
      );
  }
  for (const o of one.outcomes)
    if (o.status === 'failed' && o.mayBeEnrolled)
      expect(o.readError ?? (one.summary.aborted ? 'stopped' : undefined)).toBeDefined();
  expect(Object.values(one.summary.counts).reduce((a, b) => a + b, 0)).toBe(rows.length);

  // Resumed from those outcomes (as a JSON-lines report would give them back), without faults.
  sandbox.faults.clear();
  const enrolledBefore = new Set(one.outcomes.filter((o) => ENROLLED.has(o.status)).map((o) => o.partner_location_id));
  const report = one.outcomes.map(
    (o) => JSON.parse(JSON.stringify(o)) as { partner_location_id: string; status: string },
  );
  const two = await runOnce(sandbox, key, rows, { concurrency: s.concurrency, resume: report });
  common(two.outcomes, two.calls);
  stored();
  for (const o of two.outcomes) {
    if (o.status === 'conflict') continue;
    if (s.rows[o.index]?.bad !== 0) expect(o.status).toBe('invalid');
    else if (enrolledBefore.has(o.partner_location_id)) expect(o.status).toBe('skipped');
    else expect(['created', 'already_enrolled']).toContain(o.status);
  }
  // After the resumed run every id whose first row is valid is enrolled, as its first row.
  for (const [id, i] of firstOf) expect(sandbox.inspect.store(key, id) !== undefined).toBe(s.rows[i]?.bad === 0);
}

const plain = {
  faultRate: 0,
  faultSeed: 1,
  faultWhen: 'before',
  maxRetries: 2,
  readFaults: 0,
  abortAfter: undefined,
} as const;

/** Counterexamples fast-check shrank to, against the code before rows of one id were ordered. */
const SHRUNK: Array<[string, Scenario]> = [
  [
    'a later row with another name is a conflict naming the first',
    {
      ...plain,
      concurrency: 1,
      rows: [
        { id: 0, name: 0, bad: 0 },
        { id: 0, name: 1, bad: 0 },
      ],
    },
  ],
  [
    'a refused first row still decides: the later valid row with other content is not sent',
    {
      ...plain,
      concurrency: 1,
      rows: [
        { id: 0, name: 0, bad: 1 },
        { id: 0, name: 0, bad: 0 },
      ],
    },
  ],
  [
    'three identical rows on two lanes never overlap',
    {
      ...plain,
      concurrency: 2,
      rows: [
        { id: 0, name: 0, bad: 0 },
        { id: 0, name: 0, bad: 0 },
        { id: 0, name: 0, bad: 0 },
      ],
    },
  ],
  // Against the code before an unclear failure was settled by reading the store: reported failed, yet enrolled.
  [
    'a 5xx after the service acted, not retried: reported enrolled (a read confirms it), not failed',
    { ...plain, concurrency: 1, faultRate: 0.8, faultWhen: 'after', maxRetries: 0, rows: [{ id: 0, name: 0, bad: 0 }] },
  ],
  [
    'the same with the read failing too: failed, and saying the store may exist',
    {
      ...plain,
      concurrency: 1,
      faultRate: 0.8,
      faultWhen: 'after',
      maxRetries: 0,
      readFaults: 3,
      rows: [{ id: 0, name: 0, bad: 0 }],
    },
  ],
];

describe('enrollMany, shrunk counterexamples', () => {
  it.each(SHRUNK)('%s', async (_, s) => check(s));
});

describe('enrollMany, property-based (fast-check)', () => {
  it(
    `every row one outcome, the first row of an id decides, no two calls for one id at once, resume goes on (${RUNS.numRuns} runs)`,
    async () => {
      await fc.assert(fc.asyncProperty(scenario, check), RUNS);
    },
    Math.max(60_000, RUNS.numRuns * 200),
  );
});
