/** The ```ts blocks of the README and docs/*.md, and what a block needs from around it to run. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Snippet {
  /** `README.md:123`: the page and the line the block starts on. */
  where: string;
  code: string;
  /** Why the block cannot run on its own, from its `<!-- docs-test: skip … -->` marker. */
  skip: string | undefined;
}

const SKIP = /<!--\s*docs-test:\s*skip\s+(.+?)\s*-->\s*$/;

export function snippetsOf(root: string): Snippet[] {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const found: Snippet[] = [];
  for (const page of pages) {
    const lines = readFileSync(join(root, page), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]?.trim() !== '```ts') continue;
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) body.push(lines[i] as string);
      // The marker sits on the line before the fence (blank lines allowed between).
      let j = start - 1;
      while (j >= 0 && lines[j]?.trim() === '') j--;
      const skip = SKIP.exec(lines[j] ?? '')?.[1];
      found.push({ where: `${page}:${start + 1}`, code: body.join('\n'), skip });
    }
  }
  return found;
}

/** Names a block declares or imports itself (a prelude must not declare them again). */
export function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var|function|class)\s+(\{[^}]*\}|[A-Za-z_$][\w$]*)/g))
    addNames(m[1] as string, names);
  for (const m of code.matchAll(/^import\s+(?:type\s+)?([^'"]+?)\s+from\s+['"]/gm)) addNames(m[1] as string, names);
  return names;
}

function addNames(pattern: string, names: Set<string>): void {
  for (const part of pattern.replace(/[{}*]/g, ' ').split(',')) {
    const bits = part
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+|\s*:\s*/);
    const name = bits.at(-1)?.trim().split(/\s+/).at(-1);
    if (name && /^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
  }
}
