/**
 * The emulator is a second implementation of the contract, so it must not share code with the
 * SDK: a bug in an SDK schema would otherwise be agreed with by both sides and never fail a
 * contract test. Every import under src/testing stays under src/testing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const testing = join(root, 'src/testing');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports, static or dynamic, types included. */
function specifiers(file: string): string[] {
  return specifiersIn(readFileSync(file, 'utf8'));
}

function specifiersIn(text: string): string[] {
  const found = [
    ...text.matchAll(/(?:^|\s)(?:import|export)\s[^;'"]*?from\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ];
  return found.map((m) => m[1] as string);
}

describe('the emulator is independent of the SDK', () => {
  const files = sources(testing);

  it('finds the emulator’s sources', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(specifiers(join(testing, 'index.ts')).length).toBeGreaterThan(5);
  });

  it('imports nothing from src/ outside src/testing (no schemas, no core, no client)', () => {
    const outside = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => ({ file: relative(root, file), target: relative(root, resolve(dirname(file), s)) }))
        .filter(({ target }) => !target.startsWith('src/testing/')),
    );
    expect(outside).toEqual([]);
  });

  it('checks input with its own rules, not zod, and names no SDK package path', () => {
    const packages = new Set(files.flatMap((file) => specifiers(file).filter((s) => !s.startsWith('.'))));
    expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/') || p.startsWith('@crp/'))).toEqual([]);
  });

  it('would catch an import of the schemas (the scanner sees every import form)', () => {
    const probe = [
      "import { check } from '../schemas/index.js';",
      "export * from '../../core/transport.js';",
      "const m = await import('../client.js');",
      'import type {\n  Location,\n} from "../schemas/common.js";',
      "import '../index.js';",
    ].join('\n');
    expect(specifiersIn(probe)).toEqual([
      '../schemas/index.js',
      '../../core/transport.js',
      '../schemas/common.js',
      '../client.js',
      '../index.js',
    ]);
  });
});
