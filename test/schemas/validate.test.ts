import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { calendarDate, calendarMonth } from '../../src/schemas/common.js';
import { check } from '../../src/schemas/validate.js';

const COLOURS = ['red', 'green', 'blue'] as const;
const colour = z.enum(COLOURS);
const filters = z.strictObject({
  colour: z.optional(z.union([colour, z.array(colour)])),
  shade: z.optional(z.nullable(colour)),
  tags: z.optional(z.array(z.enum(['a', 'b']))),
  mode: z.optional(z.union([z.literal('fast'), z.literal('slow')])),
  size: z.optional(z.union([z.literal(1), z.literal(2)])),
  flag: z.optional(z.boolean()),
  count: z.optional(z.int()),
  shape: z.optional(
    z.union([
      z.strictObject({ kind: z.literal('circle'), radius: z.number() }),
      z.strictObject({ kind: z.literal('square'), side: z.number() }),
    ]),
  ),
  nested: z.optional(z.strictObject({ colour: z.optional(z.union([colour, z.array(colour)])) })),
  either: z.optional(z.nullable(z.union([colour, z.array(colour)]))),
  scope: z.optional(z.union([z.literal('all'), z.array(colour), z.array(z.literal('x'))])),
  amount: z.optional(z.union([z.literal('max'), z.int()])),
  label: z.optional(z.union([z.literal('no preference'), z.number(), z.boolean(), z.null()])),
  name: z.optional(z.union([z.literal(0), z.string()])),
  tone: z.readonly(z._default(z.union([colour, z.array(colour)]), 'red')),
  fixed: z.optional(z.readonly(z.strictObject({ a: z.number() }))),
  byName: z.optional(z.record(z.string(), z.strictObject({ n: z.number() }))),
  few: z.optional(z.array(z.string()).check(z.minLength(2))),
  small: z.optional(z.number().check(z.lte(5))),
  code: z.optional(z.string().check(z.regex(/^x/))),
  items: z.optional(z.union([z.array(z.strictObject({ a: z.number() })), z.literal('none')])),
  pick: z.optional(
    z.union([
      z.literal('none'),
      z.strictObject({ inner: z.strictObject({ a: z.number() }), n: z.number().check(z.gte(1)) }),
    ]),
  ),
  deep: z.optional(
    z.union([z.strictObject({ c: z.number() }), z.strictObject({ a: z.strictObject({ b: z.number() }) })]),
  ),
  paint: z.optional(
    z.union([z.literal('none'), z.strictObject({ kind: z.literal('a'), colour: z.union([colour, z.array(colour)]) })]),
  ),
  twin: z.optional(
    z.union([
      z.strictObject({ o: z.strictObject({ kind: z.literal('circle') }) }),
      z.strictObject({ o: z.strictObject({ form: z.literal('square') }) }),
    ]),
  ),
  sizes: z.optional(z.union([z.number(), z.array(z.number())])),
  when: z.optional(z.union([z.literal('now'), z.date()])),
  meta: z.optional(z.union([z.literal('none'), z.record(z.string(), z.number()), z.array(z.array(colour))])),
});
const FIELDS =
  'colour, shade, tags, mode, size, flag, count, shape, nested, either, scope, amount, label, name, tone, fixed, byName, few, small, code, items, pick, deep, paint, twin, sizes, when, meta';

function problem(value: unknown) {
  const result = check(filters, value);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  return result.problem;
}

describe('what a refusal says is allowed', () => {
  it.each([
    [{ colour: 'pink' }, 'colour', 'colour must be one of red, green, blue, or a list of them; got "pink"'],
    [
      { colour: ['red', 'pink'] },
      'colour',
      'colour must be one of red, green, blue, or a list of them; got "pink" in the list',
    ],
    [{ colour: 7 }, 'colour', 'colour must be one of red, green, blue, or a list of them; got 7'],
    [{ colour: null }, 'colour', 'colour must be one of red, green, blue, or a list of them; got null'],
    [{ colour: { red: true } }, 'colour', 'colour must be one of red, green, blue, or a list of them; got an object'],
    [{ shade: 'pink' }, 'shade', 'shade must be one of red, green, blue; got "pink"'],
    [{ tags: ['a', 'c'] }, 'tags.1', 'tags.1 must be one of a, b; got "c"'],
    [{ mode: 'medium' }, 'mode', 'mode must be one of fast, slow; got "medium"'],
    [{ size: 3 }, 'size', 'size must be one of 1, 2; got 3'],
    [{ flag: 'yes' }, 'flag', 'flag must be true or false'],
    [{ count: 1.5 }, 'count', 'count must be a whole number'],
    [
      { nested: { colour: 'pink' } },
      'nested.colour',
      'nested.colour must be one of red, green, blue, or a list of them; got "pink"',
    ],
    [{ either: 'pink' }, 'either', 'either must be one of red, green, blue, or a list of them, or null; got "pink"'],
    [{ bogus: 1 }, 'bogus', `"bogus" is not a recognised field; accepted: ${FIELDS}`],
    [
      { colour: [[]] },
      'colour',
      'colour must be one of red, green, blue, or a list of them; got an empty list in the list',
    ],
    [
      { colour: [['red']] },
      'colour',
      'colour must be one of red, green, blue, or a list of them; got a list in the list',
    ],
    [
      { scope: 'some' },
      'scope',
      'scope must be all, a list whose items are each one of red, green, blue, or a list whose items are each x; got "some"',
    ],
    [{ amount: 'min' }, 'amount', 'amount must be max, or a whole number; got "min"'],
    [{ label: 'maybe' }, 'label', 'label must be "no preference", a number, true or false, or null; got "maybe"'],
    [{ name: true }, 'name', 'name must be 0, or a string; got true'],
    [{ tone: 'pink' }, 'tone', 'tone must be one of red, green, blue, or a list of them; got "pink"'],
    [{ fixed: { a: 1, b: 1 } }, 'fixed.b', '"b" is not a recognised field; accepted: a'],
    [{ byName: { x: { n: 1, m: 2 } } }, 'byName.x.m', '"m" is not a recognised field; accepted: n'],
    [
      { shape: { kind: 'triangle', side: 1 } },
      'shape.kind',
      'shape.kind must be one of circle, square; got "triangle"',
    ],
    [{ shape: 5 }, 'shape', 'shape must be an object; got 5'],
    [{ shape: { kind: 'circle' } }, 'shape.radius', 'shape.radius is required'],
    // Which object branch refused the key zod does not say; the key is named all the same.
    [{ shape: { kind: 'square', side: 1, radius: 2 } }, 'shape.radius', '"radius" is not a recognised field'],
    [{ byName: { x: 'n' } }, 'byName.x', 'byName.x must be an object'],
    [{ deep: { a: { b: 'x' } } }, 'deep.a.b', 'deep.a.b must be a number'],
    [
      { paint: { kind: 'a', colour: 'pink' } },
      'paint.colour',
      'paint.colour must be one of red, green, blue, or a list of them; got "pink"',
    ],
    [{ twin: { o: { kind: 'x', form: 'y' } } }, 'twin.o.kind', 'twin.o.kind must be circle; got "x"'],
    [{ sizes: 'big' }, 'sizes', 'sizes must be a number, or a list of them; got "big"'],
    [{ sizes: [1, 'big'] }, 'sizes', 'sizes must be a number, or a list of them; got "big" in the list'],
    [
      { meta: 5 },
      'meta',
      'meta must be none, an object, or a list whose items are each a list whose items are each one of red, green, blue; got 5',
    ],
    [{ when: 'later' }, 'when', 'when has an unsupported shape; got "later"'],
    [{ items: [{ a: 1, b: 2 }] }, 'items.0.b', '"b" is not a recognised field; accepted: a'],
    [{ items: 'all' }, 'items', 'items must be none, or a list whose items are each an object; got "all"'],
    [{ pick: { inner: { a: 1, b: 2 }, n: 1 } }, 'pick.inner.b', '"b" is not a recognised field; accepted: a'],
    [{ pick: { inner: { a: 1 }, n: 0 } }, 'pick.n', 'pick.n must be at least 1'],
    [{ byName: [] }, 'byName', 'byName must be an object'],
    [{ count: Number.POSITIVE_INFINITY }, 'count', 'count is Infinity: pass a finite number'],
    [{ count: Number.NaN }, 'count', 'count is NaN: pass a finite number'],
    [{ flag: Symbol('s') }, 'flag', 'flag is a symbol, which JSON cannot carry'],
    [{ flag: () => true }, 'flag', 'flag is a function, which JSON cannot carry'],
    [{ few: ['a'] }, 'few', 'few must be at least 2'],
    [{ small: 6 }, 'small', 'small must be at most 5'],
    [{ code: 'y' }, 'code', 'code is invalid'],
    [
      { flag: undefined, count: undefined, tone: ['red', 'pink'] },
      'tone',
      'tone must be one of red, green, blue, or a list of them; got "pink" in the list',
    ],
    [{ nested: { bogus: 1 } }, 'nested.bogus', '"bogus" is not a recognised field; accepted: colour'],
  ])('%j: %s', (value, field, message) => {
    expect(problem(value)).toEqual({ field, message });
  });

  it('a union of objects names the field inside the branch the value chose', () => {
    expect(problem({ shape: { kind: 'circle', radius: 'big' } })).toEqual({
      field: 'shape.radius',
      message: 'shape.radius must be a number',
    });
  });

  it('a long value is cut, so a refusal stays one readable line', () => {
    const message = problem({ colour: 'x'.repeat(100) }).message;
    expect(message).toContain(`got "${'x'.repeat(40)}…"`);
    expect(message.length).toBeLessThan(120);
    expect(problem({ colour: 'y'.repeat(40) }).message).toContain(`got "${'y'.repeat(40)}"`);
  });

  it('values JSON cannot carry are named as such inside a union too', () => {
    expect(problem({ colour: 10n }).message).toBe('colour is a BigInt, which JSON cannot carry: pass a number');
  });

  it('a root names the whole input', () => {
    const result = check(z.strictObject({ kind: colour }), { kind: 'x' }, 'body');
    expect(result).toEqual({
      ok: false,
      problem: { field: 'body.kind', message: 'body.kind must be one of red, green, blue; got "x"' },
    });
  });
});

describe('calendar dates and months', () => {
  const date = z.strictObject({ from: calendarDate });
  const month = z.strictObject({ month: calendarMonth });
  const dateProblem = (text: string) => {
    const result = check(date, { from: text });
    return result.ok ? undefined : result.problem;
  };
  const monthProblem = (text: string) => {
    const result = check(month, { month: text });
    return result.ok ? undefined : result.problem;
  };

  it.each(['2026-01-31', '2026-02-28', '2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31', '0001-01-01'])(
    '%s is a day',
    (text) => {
      expect(dateProblem(text)).toBeUndefined();
    },
  );

  it.each([
    ['2026-02-30', 'February 2026 has days 01 to 28'],
    ['2026-02-29', 'February 2026 has days 01 to 28'],
    ['1900-02-29', 'February 1900 has days 01 to 28'],
    ['2024-02-30', 'February 2024 has days 01 to 29'],
    ['2026-04-31', 'April 2026 has days 01 to 30'],
    ['2026-06-31', 'June 2026 has days 01 to 30'],
    ['2026-09-31', 'September 2026 has days 01 to 30'],
    ['2026-11-31', 'November 2026 has days 01 to 30'],
    ['2026-01-32', 'January 2026 has days 01 to 31'],
    ['2026-01-00', 'January 2026 has days 01 to 31'],
    ['2026-13-01', 'months run 01 to 12, not 13'],
    ['2026-00-10', 'months run 01 to 12, not 00'],
  ])('%s is refused: %s', (text, reason) => {
    expect(dateProblem(text)).toEqual({ field: 'from', message: `from is not a real date (${reason}); got "${text}"` });
  });

  it.each(['2026-2-1', '26-02-01', 'yesterday', '2026-02-01T00:00:00Z', ' 2026-02-01'])(
    '%j is not in the form',
    (text) => {
      expect(dateProblem(text)).toEqual({ field: 'from', message: 'from must be a date as YYYY-MM-DD' });
    },
  );

  it.each(['2026-01', '2026-12', '2024-02'])('%s is a month', (text) => {
    expect(monthProblem(text)).toBeUndefined();
  });

  it.each([
    ['2026-13', 'months run 01 to 12, not 13'],
    ['2026-00', 'months run 01 to 12, not 00'],
  ])('%s is refused: %s', (text, reason) => {
    expect(monthProblem(text)).toEqual({
      field: 'month',
      message: `month is not a real month (${reason}); got "${text}"`,
    });
  });

  it.each(['2026-1', 'december', '2026-01-01'])('%j is not a month in the form', (text) => {
    expect(monthProblem(text)).toEqual({ field: 'month', message: 'month must be a month as YYYY-MM' });
  });
});

describe('a nullable plain type (JSON Schema writes it as a list of types)', () => {
  it('names both forms', () => {
    const schema = z.strictObject({
      v: z.union([z.literal('a'), z.nullable(z.string())]),
      w: z.array(z.nullable(z.int())),
    });
    const refused = check(schema, { v: 1, w: [] });
    expect(refused).toEqual({
      ok: false,
      problem: { field: 'v', message: 'v must be a, or a string, or null; got 1' },
    });
  });
});
