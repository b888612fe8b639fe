/**
 * `npm run size`: the CI size check. Bundles the app of bench case 6 (construct a client, make one
 * call) from the BUILT package in dist/ (run `npm run build` first) with esbuild, minified, platform
 * node, and gzips it. Exits 1 above the limit, or when the same app built from source carries a
 * module of a feature (src/events, bulk, cli, otel, redis): those have their own import paths.
 *
 * The figure the README and docs/performance.md quote lives in one place, bench/size.json, which
 * `--write` fills; without it, a measure that differs from that file fails too, so the quoted
 * figure cannot go stale (test/contract/figures.test.ts holds the two pages to the file).
 *
 *   npm run build && npm run size               (limit: SIZE_LIMIT_KB, default 45.0: a guard against growth; the goal is 30, see docs/performance.md)
 *   npm run build && npm run size -- --write    then quote bench/size.json's gzipKb in README.md and docs/performance.md
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSize, featureInputs, ourApp } from './lib/bundle.js';
import { BENCH_DIR, ROOT } from './lib/paths.js';
import { fmt } from './lib/stats.js';

const limit = Number(process.env.SIZE_LIMIT_KB ?? 45.0) * 1024;
const entry = join(ROOT, 'dist/index.js');
if (!existsSync(entry)) {
  console.error('size: dist/index.js is missing; run `npm run build` first.');
  process.exit(2);
}
const size = await bundleSize(ourApp(entry));
const verdict = size.gzip <= limit ? 'ok' : 'TOO BIG';
console.log(
  `size: app bundle with @crp/partner-sdk = ${fmt.kb(size.gzip)} gzip (${fmt.kb(size.minified)} minified); limit ${fmt.kb(limit)}: ${verdict}`,
);
// dist/index.js is one file; the app built from source shows which modules it is made of.
const features = featureInputs(await bundleSize(ourApp(join(ROOT, 'src/index.ts'))));
console.log(
  `size: modules of src/events, bulk, cli, otel, redis in the app: ${features.length === 0 ? 'none' : features.join(', ')}`,
);
if (size.gzip > limit)
  console.log(
    `size: largest inputs (minified bytes): ${size.top.map((t) => `${t.input} ${fmt.kb(t.bytes)}`).join(', ')}`,
  );

const figures = join(BENCH_DIR, 'size.json');
const measured = { gzipKb: tenths(size.gzip), minifiedKb: tenths(size.minified), limitKb: tenths(limit) };
let stale = false;
if (process.argv.includes('--write')) {
  writeFileSync(
    figures,
    `${JSON.stringify({ app: 'bench case 6: construct a client, make one call; esbuild --minify --platform=node, gzip -9', ...measured }, null, 2)}\n`,
  );
  console.log(
    `size: wrote bench/size.json (${measured.gzipKb} kB gzip): quote it in README.md and docs/performance.md`,
  );
} else {
  const quoted = existsSync(figures)
    ? (JSON.parse(readFileSync(figures, 'utf8')) as { gzipKb?: number }).gzipKb
    : undefined;
  stale = quoted !== measured.gzipKb;
  if (stale)
    console.log(
      `size: bench/size.json says ${quoted ?? '(missing)'} kB gzip, measured ${measured.gzipKb} kB: run \`npm run size -- --write\`, then quote the new figure in README.md and docs/performance.md.`,
    );
}
if (size.gzip > limit || features.length > 0 || stale) process.exit(1);

/** Kilobytes to one decimal, as every page prints them. */
function tenths(bytes: number): number {
  return Number((bytes / 1024).toFixed(1));
}
