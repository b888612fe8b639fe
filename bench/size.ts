/**
 * `npm run size`: the CI size check. Bundles the app of bench case 6 (construct a client, make one
 * call) from the BUILT package in dist/ (run `npm run build` first) with esbuild, minified, platform
 * node, and gzips it. Exits 1 above the limit, or when the same app built from source carries a
 * module of a feature (src/events, bulk, cli, otel, redis): those have their own import paths.
 *
 *   npm run build && npm run size          (limit: SIZE_LIMIT_KB, default 35.8: the 34.8 kB measured after issue #24 plus 1 kB, a guard against growth; the goal is 30, see docs/performance.md)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSize, featureInputs, ourApp } from './lib/bundle.js';
import { ROOT } from './lib/paths.js';
import { fmt } from './lib/stats.js';

const limit = Number(process.env.SIZE_LIMIT_KB ?? 35.8) * 1024;
const entry = join(ROOT, 'dist/index.js');
if (!existsSync(entry)) {
  console.error('size: dist/index.js is missing; run `npm run build` first.');
  process.exit(2);
}
const size = await bundleSize(ourApp(entry));
const verdict = size.gzip <= limit ? 'ok' : 'TOO BIG';
console.log(`size: app bundle with @crp/partner-sdk = ${fmt.kb(size.gzip)} gzip (${fmt.kb(size.minified)} minified); limit ${fmt.kb(limit)}: ${verdict}`);
// dist/index.js is one file; the app built from source shows which modules it is made of.
const features = featureInputs(await bundleSize(ourApp(join(ROOT, 'src/index.ts'))));
console.log(`size: modules of src/events, bulk, cli, otel, redis in the app: ${features.length === 0 ? 'none' : features.join(', ')}`);
if (size.gzip > limit) console.log(`size: largest inputs (minified bytes): ${size.top.map((t) => `${t.input} ${fmt.kb(t.bytes)}`).join(', ')}`);
if (size.gzip > limit || features.length > 0) process.exit(1);
