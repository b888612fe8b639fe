/**
 * A refinement (a callback) is invisible to JSON Schema, and the SDK finds refinements only
 * through zod's public registry: every one in src/ goes through `refined()`, which registers what
 * it checks, so the OpenAPI document can say it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { calendarDate, calendarMonth } from '../../src/schemas/common.js';
import { refined, refinementNotes } from '../../src/schemas/refinement.js';
import { toSchema } from '../../src/openapi/components.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** Refinements made in `text`, and how many of them `refined(` wraps (its first argument, then the refinement). */
function counts(text: string): { refinements: number; wrapped: number } {
  const refinements = text.match(/\bz\.(refine|superRefine)\(/g)?.length ?? 0;
  const wrapped = text.match(/\brefined\(\s*[\s\S]*?,\s*z\.(refine|superRefine)\(/g)?.length ?? 0;
  return { refinements, wrapped };
}

describe('refinements', () => {
  it.each([...sources('src')].filter((path) => path !== 'src/schemas/refinement.ts'))(
    '%s makes each through refined()',
    (path) => {
      const { refinements, wrapped } = counts(readFileSync(join(root, path), 'utf8'));
      expect(wrapped).toBe(refinements);
    },
  );

  it('the count sees a bare refinement', () => {
    expect(counts('const a = z.string().check(z.refine((s) => s !== "x"));')).toEqual({ refinements: 1, wrapped: 0 });
    expect(counts('const a = refined(z.string(), z.refine((s) => s !== "x"), "not x");')).toEqual({
      refinements: 1,
      wrapped: 1,
    });
  });

  it('registers what each checks, which the OpenAPI schema says', () => {
    expect(refinementNotes.get(calendarDate)?.checks).toContain('2026-02-30 is refused');
    expect(refinementNotes.get(calendarMonth)?.checks).toContain('months run 01 to 12');
    const odd = refined(
      z.number(),
      z.refine((n) => n % 2 === 1),
      'an odd number',
    );
    expect(odd.safeParse(2).success).toBe(false);
    expect(toSchema(z.optional(odd), 'input').description).toBe('Also checked: an odd number.');
    expect(toSchema(z.number(), 'input').description).toBeUndefined();
  });
});
