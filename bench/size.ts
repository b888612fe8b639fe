/**
 * `npm run size`: the CI size check. Bundles the app of bench case 6 (construct a client, make one
 * call) from the BUILT package in dist/ (run `npm run build` first) with esbuild, minified, platform
 * node, and gzips it. Exits 1 above the limit.
 *
 *   npm run build && npm run size          (limit: SIZE_LIMIT_KB, default 40: a guard against growth, not the goal; the 24 kB goal is missed, see docs/performance.md)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSize, ourApp } from './lib/bundle.js';
import { ROOT } from './lib/paths.js';
import { fmt } from './lib/stats.js';

const limit = Number(process.env.SIZE_LIMIT_KB ?? 40) * 1024;
const entry = join(ROOT, 'dist/index.js');
if (!existsSync(entry)) {
  console.error('size: dist/index.js is missing; run `npm run build` first.');
  process.exit(2);
}
const size = await bundleSize(ourApp(entry));
const verdict = size.gzip <= limit ? 'ok' : 'TOO BIG';
console.log(`size: app bundle with @crp/partner-sdk = ${fmt.kb(size.gzip)} gzip (${fmt.kb(size.minified)} minified); limit ${fmt.kb(limit)}: ${verdict}`);
if (size.gzip > limit) {
  console.log(`size: largest inputs (minified bytes): ${size.top.map((t) => `${t.input} ${fmt.kb(t.bytes)}`).join(', ')}`);
  process.exit(1);
}
