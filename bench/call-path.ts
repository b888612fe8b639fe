/**
 * The path of one `client.locations.get()`: which of our files and functions it enters, and its
 * reversals (a call against the import graph: code calling back into a module that imports it, or
 * a dependency calling back into ours), on success and on a 404. Runs the SDK from src/ against
 * the sandbox on a real port, in this process; the sandbox's own files (src/testing) are left out.
 *
 *   npx tsx bench/call-path.ts            # prints the counts and the reversals
 *   npx tsx bench/call-path.ts --check    # also exits 1 when over the budget (npm run check:call-path, in CI)
 *
 * Budget: on success at most 14 of our files; on a 404 at most 18 (the error's own files: its
 * class, the answer read into it, the retry rule that refuses to repeat it, the cleaning of the
 * server's text); on both, one reversal besides the gate's task.
 *
 * How reversals are counted: one per pair of modules (caller → callee), however many functions
 * the profile shows on it. The gate calling its task is the gate's design (the task is how it
 * learns from nothing but the answer), so edges out of gate.ts are named but not counted. p-retry
 * → transport is the one reversal a retry library needs: it calls the attempt function we hand it.
 * Its `shouldRetry` and `onFailedAttempt` are part of that same hand-over (p-retry's documented
 * options, called by its loop between attempts, with our rules in them), so they count with it,
 * not as reversals of their own: a dependency calling back into us counts once per dependency,
 * because a sampled profile of inlined code can show it calling any file its callback calls.
 *
 * Files and functions come from V8's precise coverage of one warm call (exact); reversals from
 * the caller → callee edges of a CPU profile over many calls (sampled, so a reversal too brief to
 * be sampled could be missed: the edges named are printed).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PartnerClient } from '../src/index.js';
import { createSandbox } from '../src/testing/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const MAX_FILES = { success: 14, '404': 18 } as const;
const MAX_REVERSALS = 1;
const PROFILED_CALLS = Number(process.env.CALL_PATH_CALLS ?? 4000);

/** src/ files, relative, each with the src/ files it imports (transitively). */
function importGraph(): Map<string, Set<string>> {
  const direct = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(([, spec]) =>
          relative(ROOT, resolve(dirname(path), (spec as string).replace(/\.js$/, '.ts'))),
        );
        direct.set(relative(ROOT, path), targets);
      }
    }
  };
  walk(SRC);
  const closure = new Map<string, Set<string>>();
  const reach = (file: string): Set<string> => {
    const known = closure.get(file);
    if (known) return known;
    const found = new Set<string>();
    closure.set(file, found);
    for (const target of direct.get(file) ?? []) {
      found.add(target);
      for (const further of reach(target)) found.add(further);
    }
    return found;
  };
  for (const file of direct.keys()) reach(file);
  return closure;
}

const ours = (url: string): string | undefined => {
  if (!url.startsWith(pathToFileURL(SRC).href)) return undefined;
  const file = relative(ROOT, fileURLToPath(url));
  return file.startsWith('src/testing/') ? undefined : file;
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

async function measure(call: () => Promise<unknown>, session: Session, graph: Map<string, Set<string>>) {
  for (let i = 0; i < 200; i++) await call().catch(() => undefined);
  await session.post('Profiler.takePreciseCoverage');
  await call().catch(() => undefined);
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  let functions = 0;
  for (const script of result) {
    const file = ours(script.url);
    if (!file) continue;
    const entered = script.functions.filter((fn) => fn.ranges[0] && fn.ranges[0].count > 0 && fn.functionName !== '');
    const anyEntered = script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0 && fn.ranges[0]?.startOffset !== 0);
    if (anyEntered) files.add(file);
    functions += entered.length;
  }

  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  for (let i = 0; i < PROFILED_CALLS; i++) await call().catch(() => undefined);
  const { profile } = await session.post('Profiler.stop');
  const nodes = new Map<number, ProfileNode>((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
  const reversals = new Set<string>();
  const where = (node: ProfileNode) =>
    `${ours(node.callFrame.url) ?? node.callFrame.url.replace(/^.*node_modules\//, '')} ${node.callFrame.functionName || '(anonymous)'}`;
  for (const parent of nodes.values()) {
    const from = parent.callFrame.url;
    const fromOurs = ours(from);
    const fromDependency = from.includes('/node_modules/');
    if (!fromOurs && !fromDependency) continue;
    for (const childId of parent.children ?? []) {
      const child = nodes.get(childId) as ProfileNode;
      const to = ours(child.callFrame.url);
      if (!to || to === fromOurs) continue;
      // Against the graph: a dependency calling ours, or a file calling back into one that imports it.
      if (fromDependency || graph.get(to)?.has(fromOurs as string)) reversals.add(`${where(parent)} → ${where(child)}`);
    }
  }
  return { files: [...files].sort(), functions, reversals: [...reversals].sort() };
}

const sandbox = createSandbox({ seed: 7 });
const server = await sandbox.listen(0);
const key = sandbox.issueKey({ rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } });
const [id] = sandbox.populate(key, { locations: 1 }).locationIds as [string];
const client = new PartnerClient({ apiKey: key, baseUrl: server.url });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const graph = importGraph();
let over = false;
for (const [name, call] of [
  ['success', () => client.locations.get(id)],
  ['404', () => client.locations.get('no-such-store')],
] as const) {
  const { files, functions, reversals } = await measure(call, session, graph);
  // One reversal is one module calling back into another, however many frames were sampled (V8
  // inlines a called-back closure into its caller's frame at times, so function names vary). A
  // dependency calling back counts once whichever of our files the sample lands in: with the
  // callback inlined, what it calls (retry-policy.ts from transport.ts's shouldRetry) shows as
  // called by the dependency itself.
  const calledBack = (edges: string[]) =>
    new Set(
      edges.map((edge) => {
        const [from = '', to = ''] = edge.split(' → ').map((end) => end.split(' ')[0] ?? '');
        return from.startsWith('src/') ? `${from} → ${to}` : `${from.split('/')[0]} → src`;
      }),
    ).size;
  const others = calledBack(reversals.filter((edge) => !edge.startsWith('src/core/rate-limit/gate.ts')));
  console.log(
    `locations.get, ${name}: ${files.length} of our files, ${functions} named functions, ${others} reversal(s) besides the gate's task`,
  );
  for (const file of files) console.log(`  file ${file}`);
  for (const edge of reversals) console.log(`  reversal ${edge}`);
  if (files.length > MAX_FILES[name] || others > MAX_REVERSALS) over = true;
}
session.disconnect();
await client.close();
await server.close();
if (process.argv.includes('--check') && over) {
  console.error(
    `Over budget: at most ${MAX_FILES.success} files on success, ${MAX_FILES['404']} on a 404, and ${MAX_REVERSALS} reversal besides the gate's task.`,
  );
  process.exitCode = 1;
}
