/**
 * The check generated from a response schema's JSON Schema (response-check.ts) must never let
 * through what zod refuses, nor what zod would change: on random valid items of the response
 * schemas (built from zod's JSON Schema of them) and on random changes of them (a value replaced,
 * a field removed or added). Runs: FC_NUM_RUNS (default 300 per property); a failure prints its
 * seed and shrunk item.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { pageOf } from '../../src/resources/resource.js';
import { generateCheck } from '../../src/schemas/response-check.js';
import { refined } from '../../src/schemas/refinement.js';
import { location } from '../../src/schemas/locations.js';
import { reservation } from '../../src/schemas/reservations.js';
import { settings } from '../../src/schemas/settings.js';
import { summary } from '../../src/schemas/reports.js';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

type Node = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
  required?: string[];
  propertyNames?: Node;
  additionalProperties?: Node | boolean;
};

/** Values zod accepts for the JSON Schema `node` as they are, as JSON.parse would build them. */
function valid(node: Node): fc.Arbitrary<unknown> {
  if (node.enum) return fc.constantFrom(...node.enum);
  if (node.anyOf) return fc.oneof(...node.anyOf.map(valid));
  if (Array.isArray(node.type)) return fc.oneof(...node.type.map((type) => valid({ type })));
  switch (node.type) {
    case 'string':
      return fc.string();
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.maxSafeInteger();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'null':
      return fc.constant(null);
    case undefined:
      return fc.jsonValue();
    case 'array':
      return fc.array(valid(node.items as Node), { maxLength: 4 });
    case 'object': {
      if (node.propertyNames)
        // An own `__proto__` key is refused by design (its own test below), so a valid record has none.
        return fc.dictionary(
          fc.string().filter((key) => key !== '__proto__'),
          valid(node.additionalProperties as Node),
          { maxKeys: 3 },
        );
      const shape = node.properties ?? {};
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valid(field)]));
      // A field this version does not know rides along (loose objects keep it).
      return fc
        .tuple(fc.record(fields, { requiredKeys: node.required ?? [] }), fc.option(fc.jsonValue()))
        .map(([item, extra]) => (extra === null ? item : { ...item, unknown_extra: extra }));
    }
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(node)}`);
  }
}

type Change = { path: number[]; kind: 'replace' | 'remove' | 'add'; value: unknown };

/** A copy of `value` with one change at the node reached by walking `path` (indices taken modulo each node's size). */
function mutate(value: unknown, { path, kind, value: replacement }: Change): unknown {
  const [step, ...rest] = path;
  if (step === undefined || value === null || typeof value !== 'object')
    return kind === 'replace' ? replacement : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return kind === 'add' ? [replacement] : replacement;
    const i = step % value.length;
    if (rest.length === 0 && kind === 'remove') return value.filter((_, j) => j !== i);
    return value.map((x, j) => (j === i ? mutate(x, { path: rest, kind, value: replacement }) : x));
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0 || (rest.length === 0 && kind === 'add')) return { ...record, [`added_${step}`]: replacement };
  const key = keys[step % keys.length] as string;
  if (rest.length === 0 && kind === 'remove') {
    const { [key]: _, ...others } = record;
    return others;
  }
  return { ...record, [key]: mutate(record[key], { path: rest, kind, value: replacement }) };
}

const change: fc.Arbitrary<Change> = fc.record({
  path: fc.array(fc.nat(50), { minLength: 1, maxLength: 5 }),
  kind: fc.constantFrom('replace', 'remove', 'add'),
  value: fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, -0, 1.5, '', [], {}),
  ),
});

const SCHEMAS: Record<string, z.ZodMiniType> = { location, reservation, page: pageOf(reservation), summary, settings };

describe.each(Object.entries(SCHEMAS))('the generated check of %s', (_name, schema) => {
  const node = z.toJSONSchema(schema, { io: 'output' }) as Node;
  // Made inside each test, not when the file is collected, so a mutant of the generator runs in it.
  const make = () => ({ generated: generateCheck(schema) });

  it('exists', () => {
    expect(make().generated).toBeTypeOf('function');
  });

  it('accepts every valid item, as zod does, unchanged', () => {
    const { generated } = make();
    fc.assert(
      fc.property(valid(node), (item) => {
        expect(generated?.(item)).toBe(true);
        const parsed = schema.safeParse(item);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(item);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('passes a changed item only where zod accepts it unchanged', () => {
    const { generated } = make();
    fc.assert(
      fc.property(valid(node), change, (item, one) => {
        const changed = mutate(item, one);
        if (generated?.(changed)) {
          const parsed = schema.safeParse(changed);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toEqual(changed);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('refuses an object with an own __proto__ key (JSON.parse makes one)', () => {
    const { generated } = make();
    fc.assert(
      fc.property(valid(node), (item) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
        const fields = JSON.stringify(item).slice(1);
        const poisoned = JSON.parse(`{"__proto__":{"x":1}${fields === '}' ? '' : ','}${fields}`) as unknown;
        expect(generated?.(poisoned)).toBe(false);
      }),
      { numRuns: 20 },
    );
  });
});

describe('where code cannot be generated', () => {
  it('gives undefined, so zod parses instead', () => {
    const original = globalThis.Function;
    // An edge worker or a page under a strict CSP: `new Function` throws.
    globalThis.Function = function refuse() {
      throw new EvalError('Code generation from strings disallowed for this context');
    } as unknown as FunctionConstructor;
    try {
      expect(generateCheck(reservation)).toBeUndefined();
    } finally {
      globalThis.Function = original;
    }
  });
});

describe('what the generated check does not cover', () => {
  it.each([
    ['a string with a check', z.looseObject({ s: z.string().check(z.minLength(1)) })],
    [
      'a union of objects',
      z.looseObject({ u: z.union([z.looseObject({ a: z.string() }), z.looseObject({ b: z.string() })]) }),
    ],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['an object that strips unknown fields', z.object({ a: z.string() })],
    ['a loose object with an int32 field', z.looseObject({ n: z.int32() })],
    ['a default', z.looseObject({ d: z._default(z.string(), 'x') })],
    [
      'a transform',
      z.looseObject({
        t: z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      }),
    ],
    [
      'a refinement',
      z.looseObject({
        r: refined(
          z.string(),
          z.refine((s) => s !== 'x'),
          'not x',
        ),
      }),
    ],
    ['a readonly object (zod freezes it)', z.readonly(z.looseObject({ a: z.string() }))],
  ])('gives undefined for %s: zod parses it', (_what, schema) => {
    expect(generateCheck(schema as z.ZodMiniType)).toBeUndefined();
  });

  it('covers a nullable field, an optional one, a record and a list, as zod reads them', () => {
    const schema = z.looseObject({
      a: z.nullable(z.string()),
      b: z.optional(z.int()),
      c: z.record(z.string(), z.array(z.enum(['x', 'y']))),
      d: z.optional(z.nullable(z.looseObject({ e: z.boolean() }))),
    });
    const check = generateCheck(schema);
    expect(check?.({ a: null, c: { k: ['x'] }, d: { e: true, more: 1 } })).toBe(true);
    expect(check?.({ a: 'a', b: 1.5, c: {} })).toBe(false);
    expect(check?.({ a: 'a', c: { k: ['z'] } })).toBe(false);
    expect(check?.({ c: {} })).toBe(false);
    // A union of plain types is exact: zod returns the value of the first branch that takes it, unchanged.
    const either = generateCheck(z.looseObject({ u: z.union([z.string(), z.number()]) }));
    expect([either?.({ u: 'a' }), either?.({ u: 1 }), either?.({ u: true })]).toEqual([true, true, false]);
  });
});

describe('checks that change a value', () => {
  it('are not in the response schemas: JSON Schema does not show them, so the generated check would pass what zod changes', () => {
    // z.trim() and its kin rewrite the value and leave no keyword in the JSON Schema.
    expect(generateCheck(z.looseObject({ s: z.string().check(z.trim()) }))).toBeTypeOf('function');
    const dir = new URL('../../src/schemas/', import.meta.url);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text.match(/\bz\.(trim|toLowerCase|toUpperCase|normalize|overwrite|slugify)\(/g) ?? [], file).toEqual([]);
    }
  });
});
