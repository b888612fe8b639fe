/**
 * The generated check (compiled-check.ts) must say what the closures say and never let through
 * what zod refuses: on random valid items of the response schemas (built from the schemas
 * themselves) and on random changes of them (a value replaced, a field removed or added).
 * Runs: FC_NUM_RUNS (default 300 per property); a failure prints its seed and shrunk item.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { pageOf } from '../../src/resources/resource.js';
import { generateCheck } from '../../src/schemas/compiled-check.js';
import { compileClosures } from '../../src/schemas/response-check.js';
import { location } from '../../src/schemas/locations.js';
import { reservation } from '../../src/schemas/reservations.js';
import { settings } from '../../src/schemas/settings.js';
import { summary } from '../../src/schemas/reports.js';
import type { SchemaNode } from '../../src/schemas/schema-def.js';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

/** Values zod accepts for `schema` as they are, as JSON.parse would build them. */
function valid(schema: SchemaNode): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return fc.string();
    case 'boolean':
      return fc.boolean();
    case 'number':
      return def.format === 'safeint' ? fc.maxSafeInteger() : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'unknown':
      return fc.jsonValue();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'nullable':
      return fc.option(valid(def.innerType as SchemaNode), { nil: null });
    case 'array':
      return fc.array(valid(def.element as SchemaNode), { maxLength: 4 });
    case 'record':
      // An own `__proto__` key is refused by design (its own test below), so a valid record has none.
      return fc.dictionary(
        fc.string().filter((key) => key !== '__proto__'),
        valid(def.valueType as SchemaNode),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, field]) => [
          key,
          valid(field._zod.def.type === 'optional' ? (field._zod.def.innerType as SchemaNode) : field),
        ]),
      );
      const required = Object.keys(shape).filter((key) => shape[key]?._zod.def.type !== 'optional');
      // A field this version does not know rides along (loose objects keep it).
      return fc
        .tuple(fc.record(fields, { requiredKeys: required }), fc.option(fc.jsonValue()))
        .map(([item, extra]) => (extra === null ? item : { ...item, unknown_extra: extra }));
    }
    default:
      throw new Error(`no arbitrary for ${def.type}`);
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
  const node = schema as unknown as SchemaNode;
  // Made inside each test, not when the file is collected, so a mutant of the generator runs in it.
  const make = () => ({ generated: generateCheck(node), closures: compileClosures(node) });

  it('exists where the closures do', () => {
    const { generated, closures } = make();
    expect(closures).toBeTypeOf('function');
    expect(generated).toBeTypeOf('function');
  });

  it('accepts every valid item, as zod does, unchanged', () => {
    const { generated, closures } = make();
    fc.assert(
      fc.property(valid(node), (item) => {
        expect(generated?.(item)).toBe(true);
        expect(closures?.(item)).toBe(true);
        const parsed = schema.safeParse(item);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(item);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('agrees with the closures on every changed item, and passes only what zod accepts unchanged', () => {
    const { generated, closures } = make();
    fc.assert(
      fc.property(valid(node), change, (item, one) => {
        const changed = mutate(item, one);
        const verdict = generated?.(changed);
        expect(verdict).toBe(closures?.(changed));
        if (verdict) {
          const parsed = schema.safeParse(changed);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toEqual(changed);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('refuses an object with an own __proto__ key (JSON.parse makes one), as the closures do', () => {
    const { generated, closures } = make();
    fc.assert(
      fc.property(valid(node), (item) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
        const fields = JSON.stringify(item).slice(1);
        const poisoned = JSON.parse(`{"__proto__":{"x":1}${fields === '}' ? '' : ','}${fields}`) as unknown;
        expect(generated?.(poisoned)).toBe(false);
        expect(closures?.(poisoned)).toBe(false);
      }),
      { numRuns: 20 },
    );
  });
});

describe('where code cannot be generated', () => {
  it('gives undefined, so the closures check instead', () => {
    const original = globalThis.Function;
    // An edge worker or a page under a strict CSP: `new Function` throws.
    globalThis.Function = function refuse() {
      throw new EvalError('Code generation from strings disallowed for this context');
    } as unknown as FunctionConstructor;
    try {
      expect(generateCheck(reservation as unknown as SchemaNode)).toBeUndefined();
    } finally {
      globalThis.Function = original;
    }
  });
});

describe('what the closures do not cover', () => {
  it.each([
    ['a string with a check', z.string().check(z.minLength(1))],
    ['a union', z.union([z.string(), z.number()])],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['a loose object with an int32 field', z.looseObject({ n: z.int32() })],
  ])('gives undefined for %s, as the closures do', (_what, schema) => {
    const node = schema as unknown as SchemaNode;
    expect(compileClosures(node)).toBeUndefined();
    expect(generateCheck(node)).toBeUndefined();
  });
});
