/**
 * The SDK reaches its dependencies through their public API only: no zod internals (`_zod`,
 * `_def`) and no ky internals (its `distribution/` files) anywhere in src/, the OpenAPI generator
 * included, so a minor release of either cannot break it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const PRIVATE = [/\b_zod\b/, /\b_def\b/, /['"]ky\/distribution/, /['"]zod\/v4\/core\/[a-z]/];

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|cts|js)$/.test(entry.name)) yield path;
  }
}

/** Code only: comments may name what they avoid. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe("dependencies' private fields", () => {
  const offenders = [...sources('src')]
    .filter((path) => PRIVATE.some((pattern) => pattern.test(code(readFileSync(join(root, path), 'utf8')))))
    .sort();

  it('no file of src/ reads them', () => {
    expect(offenders).toEqual([]);
  });

  it('finds a use where there is one', () => {
    const sample = "const def = (schema as any)._zod.def; import x from 'ky/distribution/core/Ky.js';";
    expect(PRIVATE.filter((pattern) => pattern.test(code(sample)))).toHaveLength(2);
    expect(relative(root, join(root, 'src'))).toBe('src');
  });
});
