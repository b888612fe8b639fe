import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { calendarDate, calendarMonth } from '../../src/schemas/common.js';
import { check, describeIssue } from '../../src/schemas/validate.js';

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
  shape: z.optional(z.union([z.strictObject({ kind: z.literal('circle'), radius: z.number() }), z.strictObject({ kind: z.literal('square'), side: z.number() })])),
  nested: z.optional(z.strictObject({ colour: z.optional(z.union([colour, z.array(colour)])) })),
  either: z.optional(z.nullable(z.union([colour, z.array(colour)]))),
});

function problem(value: unknown) {
  const result = check(filters, value);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  return result.problem;
}

describe('what a refusal says is allowed', () => {
  it.each([
    [{ colour: 'pink' }, 'colour', 'colour must be one of red, green, blue, or a list of them; got "pink"'],
    [{ colour: ['red', 'pink'] }, 'colour', 'colour must be one of red, green, blue, or a list of them; got "pink" in the list'],
    [{ colour: 7 }, 'colour', 'colour must be one of red, green, blue, or a list of them; got 7'],
    [{ colour: null }, 'colour', 'colour must be one of red, green, blue, or a list of them; got null'],
    [{ colour: { red: true } }, 'colour', 'colour must be one of red, green, blue, or a list of them; got an object'],
    [{ shade: 'pink' }, 'shade', 'shade must be one of red, green, blue; got "pink"'],
    [{ tags: ['a', 'c'] }, 'tags.1', 'tags.1 must be one of a, b; got "c"'],
    [{ mode: 'medium' }, 'mode', 'mode must be one of fast, slow; got "medium"'],
    [{ size: 3 }, 'size', 'size must be one of 1, 2; got 3'],
    [{ flag: 'yes' }, 'flag', 'flag must be true or false'],
    [{ count: 1.5 }, 'count', 'count must be a whole number'],
    [{ nested: { colour: 'pink' } }, 'nested.colour', 'nested.colour must be one of red, green, blue, or a list of them; got "pink"'],
    [{ either: 'pink' }, 'either', 'either must be one of red, green, blue, or a list of them, or null; got "pink"'],
    [{ bogus: 1 }, 'bogus', '"bogus" is not a recognised field; accepted: colour, shade, tags, mode, size, flag, count, shape, nested, either'],
    [{ nested: { bogus: 1 } }, 'nested.bogus', '"bogus" is not a recognised field; accepted: colour'],
  ])('%j: %s', (value, field, message) => {
    expect(problem(value)).toEqual({ field, message });
  });

  it('a union of objects names the field inside the branch the value chose', () => {
    expect(problem({ shape: { kind: 'circle', radius: 'big' } })).toEqual({ field: 'shape.radius', message: 'shape.radius must be a number' });
  });

  it('a long value is cut, so a refusal stays one readable line', () => {
    const message = problem({ colour: 'x'.repeat(100) }).message;
    expect(message).toContain(`got "${'x'.repeat(40)}…"`);
    expect(message.length).toBeLessThan(120);
  });

  it('values JSON cannot carry are named as such inside a union too', () => {
    expect(problem({ colour: 10n }).message).toBe('colour is a BigInt, which JSON cannot carry: pass a number');
  });

  it('without the schema, a union is described by what each branch wanted', () => {
    const parsed = filters.safeParse({ colour: 7 });
    const issue = parsed.error?.issues[0];
    expect(issue?.code).toBe('invalid_union');
    expect(describeIssue(issue!, undefined, { colour: 7 })).toEqual({ field: 'colour', message: 'colour must be one of red, green, blue, or an array; got 7' });
  });

  it('a root names the whole input', () => {
    const result = check(z.strictObject({ kind: colour }), { kind: 'x' }, 'body');
    expect(result).toEqual({ ok: false, problem: { field: 'body.kind', message: 'body.kind must be one of red, green, blue; got "x"' } });
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

  it.each(['2026-01-31', '2026-02-28', '2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31', '0001-01-01'])('%s is a day', (text) => {
    expect(dateProblem(text)).toBeUndefined();
  });

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

  it.each(['2026-2-1', '26-02-01', 'yesterday', '2026-02-01T00:00:00Z', ' 2026-02-01'])('%j is not in the form', (text) => {
    expect(dateProblem(text)).toEqual({ field: 'from', message: 'from must be a date as YYYY-MM-DD' });
  });

  it.each(['2026-01', '2026-12', '2024-02'])('%s is a month', (text) => {
    expect(monthProblem(text)).toBeUndefined();
  });

  it.each([
    ['2026-13', 'months run 01 to 12, not 13'],
    ['2026-00', 'months run 01 to 12, not 00'],
  ])('%s is refused: %s', (text, reason) => {
    expect(monthProblem(text)).toEqual({ field: 'month', message: `month is not a real month (${reason}); got "${text}"` });
  });

  it.each(['2026-1', 'december', '2026-01-01'])('%j is not a month in the form', (text) => {
    expect(monthProblem(text)).toEqual({ field: 'month', message: 'month must be a month as YYYY-MM' });
  });
});
