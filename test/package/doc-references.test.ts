/**
 * The README and docs/ ship to partners who have only the repository: they must not send readers
 * to files it does not hold (the service's specification and the wire contract live outside it),
 * and every relative link must resolve.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { outsideReferences } from '../../scripts/outside-references.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe.each(pages)('%s', (page) => {
  const text = readFileSync(join(root, page), 'utf8');

  it('names no file outside the repository and no section of the service specification by number', () => {
    expect(outsideReferences(text, page)).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] as string)
      .filter((href) => !/^[a-z]+:/i.test(href));
    const missing = links.filter((href) => !existsSync(resolve(root, dirname(page), decodeURIComponent(href))));
    expect(missing).toEqual([]);
  });
});
