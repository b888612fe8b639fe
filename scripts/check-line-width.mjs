#!/usr/bin/env node
/**
 * Fails on any line of src/ over 160 columns (the formatter wraps code at 120; what it cannot wrap,
 * a long string or comment, must be split by hand). `npm run check:width`; prints each line found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = 160;
const root = fileURLToPath(new URL('..', import.meta.url));

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name)) yield path;
  }
}

const over = [];
for (const file of sourceFiles(join(root, 'src'))) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      // Columns as an editor counts them: code points, not UTF-16 units.
      const width = [...line].length;
      if (width > LIMIT) over.push(`${relative(root, file)}:${i + 1}: ${width} columns`);
    });
}
if (over.length > 0) {
  console.error(`${over.length} line(s) in src/ over ${LIMIT} columns (split long messages and comments):`);
  for (const line of over) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`src/: no line over ${LIMIT} columns`);
