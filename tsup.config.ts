import { dirname, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

const REDIS_DIR = dirname(resolve('src/redis/index.ts')) + sep;

/**
 * The redis entry's files import the main entry (`../index.js`) for ConfigurationError: kept as an import
 * of dist/index.js (dist/index.cjs in the CommonJS build) rather than bundled, so an application
 * has one copy of the client's classes and `instanceof` holds.
 */
const mainEntryExternal: Plugin = {
  name: 'main-entry-external',
  setup(build) {
    // The main entry's file in this format's build (treeshake makes esbuild's `format` esm for both).
    const main = `../index${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, ({ importer }) => (importer.startsWith(REDIS_DIR) ? { path: main, external: true } : undefined));
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/cli.ts',
    'redis/index': 'src/redis/index.ts',
    'otel/index': 'src/otel/index.ts',
    'cli/crp': 'src/cli/crp.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations for the import paths only (the crp-sandbox and crp commands have no importable API).
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', 'redis/index': 'src/redis/index.ts', 'otel/index': 'src/otel/index.ts' } },
  sourcemap: false,
  clean: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // import.meta.url in the CJS build (the testing entry loads msw through createRequire).
  shims: true,
  // Keep `node:` specifiers: Deno and edge bundlers recognise built-ins by them.
  removeNodeProtocol: false,
  // ky and p-retry ship ESM only; inlining them keeps `require()` working on Node 20.0-20.18.
  // zod is inlined for start-up time: its package entry loads every locale (~70 ms of import),
  // while the parts our schemas use, tree-shaken, load in a few. The declarations still import
  // zod's types from the zod dependency.
  noExternal: ['ky', 'p-retry', 'is-network-error', /^zod/],
  external: ['ioredis', 'msw', 'bottleneck', '@opentelemetry/api'],
  esbuildPlugins: [mainEntryExternal],
});
