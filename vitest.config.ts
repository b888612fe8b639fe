import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples and tests import the package by its public name, as partners do.
    alias: [
      { find: /^@crp\/partner-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^@crp\/partner-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^@crp\/partner-sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^@crp\/partner-sdk\/events$/, replacement: src('events/index.ts') },
      { find: /^@crp\/partner-sdk\/bulk$/, replacement: src('bulk/index.ts') },
      { find: /^@crp\/partner-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (expectTypeOf, @ts-expect-error) run with the suite: tsc checks test/types/*.test-d.ts.
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
