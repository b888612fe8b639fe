import { dirname, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

/** The entries built on the public client: each imports the main entry as `../index.js`. */
const FEATURE_DIRS = ['redis', 'events', 'bulk', 'otel', 'postgres'].map(
  (name) => dirname(resolve(`src/${name}/index.ts`)) + sep,
);

/** The mirror's files: they also run the events entry's watcher. */
const POSTGRES_DIR = dirname(resolve('src/postgres/index.ts')) + sep;

/**
 * A feature's files import the main entry (`../index.js`) for the client's classes and errors: kept
 * as an import of dist/index.js (dist/index.cjs in the CommonJS build) rather than bundled, so an
 * application has one copy of the client's classes and `instanceof` holds across entries.
 */
const mainEntryExternal: Plugin = {
  name: 'main-entry-external',
  setup(build) {
    // The main entry's file in this format's build (treeshake makes esbuild's `format` esm for both).
    const main = `../index${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, ({ importer }) =>
      FEATURE_DIRS.some((dir) => importer.startsWith(dir)) ? { path: main, external: true } : undefined,
    );
    // The mirror runs the events entry's watcher: dist/events/index, so its classes are the events entry's own.
    const events = `../events/index${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /^\.\.\/events\/index\.js$/ }, ({ importer }) =>
      importer.startsWith(POSTGRES_DIR) ? { path: events, external: true } : undefined,
    );
  },
};

const shared: Options = {
  sourcemap: false,
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
  external: ['ioredis', 'msw', 'bottleneck', '@opentelemetry/api', 'pg', '@electric-sql/pglite'],
};

export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/cli': 'src/testing/cli.ts',
      'redis/index': 'src/redis/index.ts',
      'otel/index': 'src/otel/index.ts',
      'events/index': 'src/events/index.ts',
      'bulk/index': 'src/bulk/index.ts',
      'postgres/index': 'src/postgres/index.ts',
    },
    format: ['esm', 'cjs'],
    // Declarations for the import paths only (the crp-sandbox and crp commands have no importable API).
    dts: {
      entry: {
        index: 'src/index.ts',
        'testing/index': 'src/testing/index.ts',
        'redis/index': 'src/redis/index.ts',
        'otel/index': 'src/otel/index.ts',
        'events/index': 'src/events/index.ts',
        'bulk/index': 'src/bulk/index.ts',
        'postgres/index': 'src/postgres/index.ts',
      },
    },
    // dist/cli is the other build's (the two run at once, into the same folder under `--out-dir`).
    clean: ['!cli/**'],
    esbuildPlugins: [mainEntryExternal],
  },
  {
    // The crp command is an application: one bundle with its own copy of the client and of the
    // features it uses, so the client its commands make and the features' classes are the same
    // (the plugin above would give the features dist/index.js's copy beside the CLI's own).
    ...shared,
    entry: { 'cli/crp': 'src/cli/crp.ts' },
    format: ['esm'],
    clean: false,
  },
]);
