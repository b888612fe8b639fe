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
  // ky and p-retry ship ESM only; inlining them keeps `require()` working on Node 20.0-20.18.
  noExternal: ['ky', 'p-retry', 'is-network-error'],
  external: ['ioredis', 'msw', 'bottleneck'],
});
