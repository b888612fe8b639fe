/**
 * What a V8 heap snapshot holds, by kind of object: `node bench/lib/heap-summary.ts <file> [name]`.
 * Prints the 40 largest groups (objects by constructor, strings, arrays, closures, code) with their
 * count and self size; with `name`, also the chain of retainers of a few objects of that group, to
 * see who keeps them. Self sizes, not retained ones: comparing two snapshots of one process at two
 * fleet sizes shows which group grows with the fleet.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, wanted] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/lib/heap-summary.ts <file.heapsnapshot> [group name]');
const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = heap.snapshot;
const nodeWidth = meta.node_fields.length;
const edgeWidth = meta.edge_fields.length;
// The snapshot's flat arrays, read without undefined checks at each index (they are well formed).
const node = (i: number, field: number) => heap.nodes[i * nodeWidth + field] as number;
const edgeAt = (e: number, field: number) => heap.edges[e * edgeWidth + field] as number;
const text = (i: number) => heap.strings[i] as string;
const at = (field: string) => meta.node_fields.indexOf(field);
const [TYPE, NAME, SIZE, EDGES] = [at('type'), at('name'), at('self_size'), at('edge_count')];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const [EDGE_TYPE, EDGE_NAME, EDGE_TO] = ['type', 'name_or_index', 'to_node'].map((f) =>
  meta.edge_fields.indexOf(f),
) as [number, number, number];

const count = heap.nodes.length / nodeWidth;
const group = (i: number): string => {
  const type = nodeTypes[node(i, TYPE)];
  const name = text(node(i, NAME));
  if (type === 'object' || type === 'native') return `${type}:${name}`;
  if (type === 'closure') return `closure:${name || '(anonymous)'}`;
  return `(${type})`;
};

const groups = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let i = 0; i < count; i++) {
  const key = group(i);
  const size = node(i, SIZE);
  total += size;
  const g = groups.get(key) ?? { count: 0, bytes: 0 };
  g.count++;
  g.bytes += size;
  groups.set(key, g);
}
const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
console.log(`${file}: ${count} objects, ${mb(total)} MB self size`);
for (const [key, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 40)) {
  console.log(`${mb(g.bytes).padStart(9)} MB ${String(g.count).padStart(9)}  ${key.slice(0, 100)}`);
}

if (wanted) {
  // Each object's retainer on a shortest path from the root (what DevTools shows first).
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = (firstEdge[i] as number) + node(i, EDGES);
  const retainers = new Map<number, { from: number; edge: string }>();
  let frontier = [0];
  const reached = new Uint8Array(count);
  reached[0] = 1;
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const from of frontier) {
      const end = firstEdge[from + 1] as number;
      for (let e = firstEdge[from] as number; e < end; e++) {
        const type = edgeTypes[edgeAt(e, EDGE_TYPE)];
        if (type === 'weak' || type === 'shortcut') continue;
        const to = edgeAt(e, EDGE_TO) / nodeWidth;
        if (reached[to]) continue;
        reached[to] = 1;
        const nameOrIndex = edgeAt(e, EDGE_NAME);
        const edge = type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : text(nameOrIndex);
        retainers.set(to, { from, edge });
        next.push(to);
      }
    }
    frontier = next;
  }
  // The group's bytes by who holds them (the first links of each object's chain), then a few whole chains.
  const chainOf = (i: number): string[] => {
    const chain: string[] = [];
    for (let node = i; ; ) {
      const r = retainers.get(node);
      if (!r) return chain;
      chain.push(`${group(r.from)}.${r.edge}`);
      node = r.from;
    }
  };
  const holders = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < count; i++) {
    if (group(i) !== wanted) continue;
    const key = chainOf(i)
      .slice(0, 5)
      .map((link) => link.replace(/\.\[?\d+\]?$/, '.[i]').replace(/^\(string\)\.[^ ]*$/, '(string)'))
      .join(' < ');
    const h = holders.get(key) ?? { count: 0, bytes: 0 };
    h.count++;
    h.bytes += node(i, SIZE);
    holders.set(key, h);
  }
  console.log(`\n${wanted}, by holder:`);
  for (const [key, h] of [...holders].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15)) {
    console.log(`${mb(h.bytes).padStart(9)} MB ${String(h.count).padStart(9)}  ${key.slice(0, 400)}`);
  }
  let shown = 0;
  for (let i = 0; i < count && shown < 5; i += 1) {
    if (group(i) !== wanted) continue;
    if (i % 7 !== 0 && shown > 0) continue;
    shown++;
    // The whole chain to a root (long ones: a linked list, closures holding closures), shown by its
    // first links and its last ones, nearest the root.
    const chain: string[] = [];
    let node = i;
    for (;;) {
      const r = retainers.get(node);
      if (!r) break;
      chain.push(`${group(r.from)}.${r.edge}`);
      node = r.from;
    }
    if (chain.length > 16) chain.splice(6, chain.length - 16, `… ${chain.length - 16} links …`);
    console.log(`\n${wanted} #${i}:\n  ${chain.join('\n  ')}`);
  }
}
