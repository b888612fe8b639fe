/**
 * Where a sampled allocation profile's bytes went (bench/lib/alloc-profile.mjs, garbage included):
 * `node --import tsx bench/lib/alloc-summary.ts <file.heapprofile> [frames]`. Prints the bytes by the
 * function that allocated them, and by the nearest frame of this package (`dist/` or `src/`) on the
 * stack, so that bytes allocated inside a dependency (JSON.parse, zod, pg) are charged to the SDK
 * code that asked for them; with `frames`, that frame's callers too (that many frames up).
 */
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: Frame;
  selfSize: number;
  children: ProfileNode[];
}

// Piped into `head`: stop quietly once it has read enough.
process.stdout.on('error', () => process.exit(0));

const [file, depthArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/lib/alloc-summary.ts <file.heapprofile> [frames]');
const depth = Number(depthArg ?? 1);
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };

const ours = (f: Frame) => /\/(dist|src)\//.test(f.url) && !f.url.includes('node_modules');
const name = (f: Frame) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|src|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;

const bySelf = new Map<string, number>();
const byOurs = new Map<string, number>();
let total = 0;
const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);

function walk(node: ProfileNode, stack: Frame[]): void {
  stack.push(node.callFrame);
  if (node.selfSize > 0) {
    total += node.selfSize;
    add(bySelf, name(node.callFrame), node.selfSize);
    let at = stack.length - 1;
    while (at >= 0 && !ours(stack[at] as Frame)) at--;
    const chain = at < 0 ? ['(outside the package)'] : stack.slice(Math.max(0, at - depth + 1), at + 1).map(name);
    add(byOurs, chain.reverse().join('  <  '), node.selfSize);
  }
  for (const child of node.children) walk(child, stack);
  stack.pop();
}
walk(head, []);

const mb = (n: number) => `${(n / 1e6).toFixed(1).padStart(8)} MB`;
const top = (title: string, map: Map<string, number>, count: number) => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${mb(bytes)} ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${key}`);
};
console.log(`${mb(total)} sampled in all`);
top('By the function that allocated:', bySelf, 25);
top("By this package's nearest frame:", byOurs, 30);
