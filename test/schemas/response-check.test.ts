/**
 * Responses checked in place must be exactly what zod accepts, with zod's output: for real bodies
 * from the sandbox and for every one-leaf change of them, `parseResponse` and zod's own parse agree
 * on success, and on success give equal data (the body itself when it passed the check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { pageOf } from '../../src/resources/resource.js';
import { location } from '../../src/schemas/locations.js';
import { reservation } from '../../src/schemas/reservations.js';
import { summary } from '../../src/schemas/reports.js';
import { settings } from '../../src/schemas/settings.js';
import { generateCheck, parseResponse } from '../../src/schemas/response-check.js';
import { startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

let env: SdkEnv;
const bodies: Record<string, { schema: z.ZodMiniType; body: unknown }> = {};

beforeAll(async () => {
  env = await startSdkEnv('msw');
  const key = env.sandbox.issueKey();
  const { locationIds } = env.sandbox.populate(key, { locations: 2, reservationsPerLocation: 5 });
  const client = env.client({ apiKey: key });
  const raw = (path: string) => client.request({ method: 'GET', path });
  bodies.location = { schema: location, body: await raw(`/locations/${locationIds[0]}`) };
  bodies.page = {
    schema: pageOf(reservation),
    body: await client.request({ method: 'GET', path: '/reservations', query: { limit: 3 } }),
  };
  bodies.summary = { schema: summary, body: await raw('/summary') };
  bodies.settings = { schema: settings, body: await raw('/settings') };
});
afterAll(() => env.close());

const LEAVES: unknown[] = [
  null,
  undefined,
  '',
  'x',
  0,
  -1,
  1.5,
  2 ** 60,
  Number.POSITIVE_INFINITY,
  Number.NaN,
  true,
  [],
  {},
  ['x'],
  { a: 1 },
];

/** Every copy of `value` with one leaf or one object replaced by each of LEAVES, or one key removed or added. */
function* variants(value: unknown): Generator<unknown> {
  for (const leaf of LEAVES) yield leaf;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      for (const v of variants(value[i])) yield value.map((x, j) => (j === i ? v : x));
    yield [];
    yield [...value, value[0]];
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      for (const v of variants(record[key])) yield { ...record, [key]: v };
      const { [key]: _, ...rest } = record;
      yield rest;
    }
    yield { ...record, extra_field: { nested: [1] } };
    yield JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(record).slice(1)}`);
  }
}

describe('parseResponse agrees with zod', () => {
  it.each(['location', 'page', 'summary', 'settings'])('on a %s body and every one-leaf change of it', (name) => {
    const { schema, body } = bodies[name]!;
    expect(typeof generateCheck(schema)).toBe('function');
    const mine = parseResponse(schema, body);
    expect(mine.success).toBe(true);
    expect(mine.data).toBe(body);
    let compared = 0;
    let failures = 0;
    for (const value of variants(body)) {
      const ours = parseResponse(schema, value);
      const zods = schema.safeParse(value);
      expect(ours.success).toBe(zods.success);
      if (zods.success) expect(ours.data).toEqual(zods.data);
      else failures++;
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
    expect(failures).toBeGreaterThan(5);
  });
});

describe('what the in-place check leaves to zod', () => {
  const item = z.looseObject({ id: z.string(), n: z.int(), when: z.nullable(z.string()) });

  it('a wrong body: zod reports the field', () => {
    const result = parseResponse(item, { id: 'a', n: 1.5, when: null });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['n']);
  });

  it('an own __proto__ key: zod parses a copy without it', () => {
    const body = JSON.parse('{"id":"a","n":1,"when":null,"__proto__":{"polluted":true}}') as object;
    const result = parseResponse(item, body);
    expect(result.success).toBe(true);
    expect(result.data).not.toBe(body);
    expect(Object.hasOwn(result.data!, '__proto__')).toBe(false);
  });

  it('fields with checks are left to zod, which still applies them', () => {
    const checked = z.looseObject({ code: z.string().check(z.regex(/^[A-Z]{2}$/)) });
    expect(generateCheck(checked)).toBeUndefined();
    expect(parseResponse(checked, { code: 'us' }).success).toBe(false);
    expect(parseResponse(checked, { code: 'US', more: 1 })).toEqual({ success: true, data: { code: 'US', more: 1 } });
  });
});
