#!/usr/bin/env node
/**
 * Runs after tsup (`npm run build`). msw is an optional peer dependency, but the `/testing`
 * declarations name its `HttpHandler` (the type of `sandbox.mswHandlers()`). A project without
 * msw and with `skipLibCheck: false` would fail on that import (TS2307), so each import of msw in
 * the published declarations gets a `// @ts-ignore`: without msw the handler type is `any`, with
 * msw it is msw's own. The same for pg, whose `Pool` the `/postgres` declarations name (the
 * `pool` option of `syncToPostgres()`). tsup's declaration bundler drops comments, hence this step.
 * scripts/check-package.mjs proves both cases in a consumer project.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OPTIONAL_PEERS = ['msw', 'pg'];
const MARK = '// @ts-ignore: optional peer dependency, resolves only where it is installed';
const dist = new URL('../dist/', import.meta.url).pathname;
const importOf = new RegExp(`^import .* from '(${OPTIONAL_PEERS.join('|')})(/[^']*)?';$`);

let patched = 0;
for (const file of readdirSync(dist, { recursive: true })) {
  if (!/\.d\.c?ts$/.test(file)) continue;
  const path = join(dist, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const out = [];
  lines.forEach((line, i) => {
    if (importOf.test(line) && lines[i - 1] !== MARK) {
      out.push(MARK);
      patched++;
    }
    out.push(line);
  });
  writeFileSync(path, out.join('\n'));
}
console.log(`optional-peer-types: ${patched} import(s) of ${OPTIONAL_PEERS.join(', ')} marked in dist/**/*.d.ts`);
