import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/cli.ts',
  },
  format: ['esm', 'cjs'],
  // Declarations for the two import paths only (the crp-sandbox command has no importable API).
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } },
  sourcemap: false,
  clean: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // import.meta.url in the CJS build (the testing entry loads msw through createRequire).
  shims: true,
  // Keep `node:` specifiers: Deno and edge bundlers recognise built-ins by them.
  removeNodeProtocol: false,
  // p-retry ships ESM only; inlining it keeps `require()` working on Node 20.0-20.18.
  // zod is inlined for start-up time: its package entry loads every locale (~70 ms of import),
  // while the parts our schemas use, tree-shaken, load in a few. The declarations still import
  // zod's types from the zod dependency.
  noExternal: ['p-retry', 'is-network-error', /^zod/],
  external: ['ioredis', 'msw', 'bottleneck'],
});
