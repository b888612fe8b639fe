/**
 * The import graph of src/ and the rules of its structure: the client never imports a feature, a
 * feature imports the client through the package's public entry only, and no import circle joins
 * the two. Specifiers are read with TypeScript's own pre-processor (comments and TSDoc examples
 * are not imports; `import type`, `export … from` and `import()` are).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Each file (relative to src/, with `/`) and the files of src/ it imports, with the specifier used. */
export type ImportGraph = Map<string, Array<{ specifier: string; target: string }>>;

export function readImportGraph(srcDir: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of readdirSync(srcDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.ts$/.test(file) || file.endsWith('.d.ts')) continue;
    const path = join(srcDir, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    const edges = importedFiles
      .map(({ fileName: specifier }) => ({ specifier, target: resolveInSrc(srcDir, path, specifier) }))
      .filter((edge): edge is { specifier: string; target: string } => edge.target !== undefined);
    graph.set(posix(file), edges);
  }
  return graph;
}

function resolveInSrc(srcDir: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(from), specifier);
  const found = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find((candidate) =>
    existsSync(candidate),
  );
  if (!found) throw new Error(`${relative(srcDir, from)} imports ${specifier}, which is no file of src/`);
  return posix(relative(srcDir, found));
}

const posix = (path: string) => path.split(sep).join('/');

/** Features: built on the client, beside it. */
export const FEATURES = ['events', 'bulk', 'cli', 'otel', 'redis', 'postgres'] as const;
/** Features imported by applications from their own entry: they reach the client through `../index.js` only. */
const ENTRY_FEATURES = ['events', 'bulk', 'otel', 'redis', 'postgres'];

/** The client: what `@crp/partner-sdk` is made of. */
export const isCore = (file: string): boolean =>
  file === 'client.ts' || file === 'index.ts' || /^(core|resources|schemas)\//.test(file);
export const featureOf = (file: string): string | undefined => FEATURES.find((name) => file.startsWith(`${name}/`));

/**
 * Imports of internals that an entry feature still makes, each with why. A new one fails the test:
 * make what it needs public (exported from src/index.ts) instead.
 */
export interface Exception {
  file: string;
  target: string;
  why: string;
}

export function violations(graph: ImportGraph, exceptions: Exception[] = []): string[] {
  const found: string[] = [];
  for (const [file, edges] of graph) {
    const feature = featureOf(file);
    for (const { specifier, target } of edges) {
      const targetFeature = featureOf(target);
      if (isCore(file) && targetFeature)
        found.push(`${file} (the client) imports ${target} (feature ${targetFeature})`);
      if (
        feature &&
        ENTRY_FEATURES.includes(feature) &&
        targetFeature !== feature &&
        !(specifier === '../index.js' && target === 'index.ts')
      ) {
        if (!exceptions.some((e) => e.file === file && e.target === target)) {
          found.push(
            `${file} (feature ${feature}) imports ${target} as ${JSON.stringify(specifier)}: a feature uses the public entry only ('../index.js')`,
          );
        }
      }
    }
  }
  for (const circle of circles(graph)) {
    const features = new Set(circle.map(featureOf).filter(Boolean));
    if (features.size > 0 && (circle.some(isCore) || features.size > 1))
      found.push(`import circle between the client and a feature: ${circle.join(' → ')}`);
  }
  return found;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const { target } of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return out;
}
