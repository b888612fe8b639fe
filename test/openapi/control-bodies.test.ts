/**
 * Every body of a sandbox control POST, as the served document states it and as the sandbox takes
 * it: each documented example is accepted by the sandbox on a real port, each body the sandbox
 * accepts validates against the document (a generated client must be able to send it), and each
 * body the document allows is accepted, but for the rules the document states in words only.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import document from '../../src/testing/http/openapi.json' with { type: 'json' };

interface BodyDoc {
  schema: object;
  examples?: Record<string, { value: Record<string, unknown> }>;
}
interface Operation {
  requestBody?: { content: { 'application/json': BodyDoc } };
  responses: Record<string, unknown>;
  security?: Array<Record<string, unknown>>;
}

const paths = document.paths as unknown as Record<string, Record<string, Operation>>;
const bodies = Object.entries(paths)
  .filter(([path]) => path.startsWith('/_sandbox'))
  .flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) =>
      op.requestBody
        ? [{ path, method: method.toUpperCase(), op, body: op.requestBody.content['application/json'] }]
        : [],
    ),
  );
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>(bodies.map(({ path, body }) => [path, ajv.compile(body.schema)]));

/** For each field, values the sandbox takes and values it refuses (a field with none it takes is one it does not know). */
type Values = [good: unknown[], bad: unknown[]];
const NUMBER: Values = [
  [0, 1, 1.5, 2],
  [-1, '1', null],
];
const UNKNOWN: Values = [[], [1]];
const FIELDS: Record<string, Record<string, Values>> = {
  '/_sandbox/clock/advance': {
    by_ms: NUMBER,
    days: NUMBER,
    hours: NUMBER,
    minutes: NUMBER,
    ms: NUMBER,
    to: [['2026-12-08T09:00:00Z'], ['2020-01-01T00:00:00Z', 'soon', 5]],
    weeks: UNKNOWN,
  },
  '/_sandbox/faults': {
    status: [
      [503, 200],
      [99, '503'],
    ],
    body: [['html', 'empty'], ['xml']],
    headers: [[{ 'x-a': 'b' }], [{ 'x-a': 1 }]],
    delayMs: [[0], [-1]],
    hang: [[true], [false]],
    reset: [[true], ['yes']],
    malformed: [[true], [1]],
    times: [[1, 3], [0]],
    path: [['/partner/v1/summary'], ['']],
    pathPattern: [['/partner/*'], ['']],
    method: [['GET'], ['']],
    when: [['after', 'before'], ['never']],
    bogus: UNKNOWN,
  },
  '/_sandbox/faults/random': {
    rate: [
      [0.1, 1],
      [2, '0.1'],
    ],
    kinds: [
      [['unavailable'], [{ status: 500 }], []],
      [['nope'], [{ bogus: 1 }], 'reset'],
    ],
    seed: [[7], [-1]],
    path: [['/partner/v1/summary'], ['']],
    pathPattern: [['/partner/*'], ['']],
    when: [['before'], ['never']],
    bogus: UNKNOWN,
  },
  '/_sandbox/keys': {
    allowIps: [
      [['10.0.0.0/8'], ['::1', '127.0.0.1']],
      [['not-an-ip'], [''], 'x'],
    ],
    rateLimit: [
      [{ limit: 10 }, { windowMs: 1000, limit: 2 }, {}],
      [{ windowMs: 0 }, { bogus: 1 }],
    ],
    account: [[], ['crp_test_unknown', '']],
    bogus: UNKNOWN,
  },
  '/_sandbox/populate': {
    locations: [
      [0, 2],
      [-1, '2'],
    ],
    reservationsPerLocation: [[0, 3], [10_001]],
    idPrefix: [['p-', ''], ['bad prefix']],
    bogus: UNKNOWN,
  },
  '/_sandbox/reset': { bogus: UNKNOWN },
};

/**
 * Refusals the document states in words (a description), not in the schema: the field the sandbox
 * names, for each path. A body the schema allows may be refused only for one of these.
 */
const IN_WORDS: Record<string, string[]> = {
  '/_sandbox/clock/advance': ['to'], // not before the current simulated time
  '/_sandbox/keys': ['allowIps', 'account'], // IP addresses or CIDR ranges; a key this sandbox issued
};

/** A body of up to four of the route's fields, each value mostly one the sandbox takes. */
function bodyOf(path: string): fc.Arbitrary<Record<string, unknown>> {
  const fields = FIELDS[path] as Record<string, Values>;
  const value = ([good, bad]: Values) =>
    good.length === 0
      ? fc.constantFrom(...bad)
      : fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 5 }, { arbitrary: fc.constantFrom(...bad), weight: 1 });
  return fc
    .subarray(Object.keys(fields), { maxLength: Math.min(4, Object.keys(fields).length) })
    .chain((names) => fc.tuple(...names.map((name) => value(fields[name] as Values).map((v) => [name, v] as const))))
    .map((entries) => Object.fromEntries(entries));
}

describe('the sandbox control bodies in the served document', () => {
  it('cover every control POST, each with examples, and the fields tried here are the documented ones and more', () => {
    expect(bodies.map((b) => b.path).sort()).toEqual(Object.keys(FIELDS).sort());
    for (const { path, body } of bodies) expect(Object.keys(body.examples ?? {}).length, path).toBeGreaterThan(0);
  });

  describe('each documented example, sent to a sandbox on a real port', () => {
    let sandbox: Sandbox;
    let server: Awaited<ReturnType<Sandbox['listen']>>;
    beforeAll(async () => {
      sandbox = createSandbox();
      server = await sandbox.listen(0);
    });
    afterAll(() => server.close());

    it.each(
      bodies.flatMap(({ path, method, op, body }) =>
        Object.entries(body.examples ?? {}).map(([name, { value }]) => ({ path, method, op, name, value })),
      ),
    )('$method $path ($name) validates and is accepted', async ({ path, method, op, value }) => {
      expect(validators.get(path)?.(value), ajv.errorsText(validators.get(path)?.errors)).toBe(true);
      sandbox.reset();
      const key = sandbox.issueKey();
      const got = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(value),
      });
      const answer = await got.json();
      expect(Object.keys(op.responses), JSON.stringify(answer)).toContain(String(got.status));
      expect(got.status, JSON.stringify(answer)).toBeLessThan(300);
    });
  });

  it.each(Object.keys(FIELDS))(
    '%s: a body the sandbox accepts validates against the document, and one the document allows is accepted',
    async (path) => {
      const sandbox = createSandbox();
      const validate = validators.get(path) as ValidateFunction;
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(bodyOf(path), async (body) => {
          sandbox.reset();
          const key = sandbox.issueKey();
          const got = await sandbox.handle(
            new Request(`http://sandbox.test${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
              body: JSON.stringify(body),
            }),
          );
          const answer = (await got.json()) as { error?: { field?: string; message: string } };
          const documented = validate(body);
          seen.add(`${got.status < 300 ? 'accepted' : 'refused'} ${documented ? 'allowed' : 'not allowed'}`);
          if (got.status < 300)
            expect(documented, `accepted, but the document refuses it: ${ajv.errorsText(validate.errors)}`).toBe(true);
          else if (documented)
            expect(
              IN_WORDS[path] ?? [],
              `the document allows it, the sandbox refused it: ${answer.error?.message}`,
            ).toContain(answer.error?.field);
        }),
        { numRuns: 150, seed: 33 },
      );
      // The run tried both sides: bodies the sandbox took and bodies both refused.
      expect(seen).toContain('accepted allowed');
      expect(seen).toContain('refused not allowed');
    },
  );
});
