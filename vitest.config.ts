import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * The slow set (`npm run test:slow`): simulated weeks and months, crash and failover runs, stress
 * across processes, real-time pacing, the examples and the type tests run by other runtimes and
 * compilers, and the largest property runs. Every other test file is the default set (`npm test`).
 * CI runs both; test/package/house.test.ts checks that each path here exists.
 */
export const SLOW_TESTS = [
  // Crash runs and failover: processes killed mid-run, replicas taking over.
  'test/events/crash.test.ts',
  'test/redis-events/failover.test.ts',
  'test/postgres/kills.property.test.ts',
  'test/rate-limit/exit.test.ts',
  // Stress across processes and threads.
  'test/events/file-lock.stress.test.ts',
  'test/transport/shared-budget.test.ts',
  'test/examples/shared-key-redis.test.ts',
  // Simulated days and months against the sandbox's ground truth.
  'test/events/service-time.test.ts',
  'test/events/hostile.test.ts',
  'test/events/service-time-hostile.test.ts',
  'test/examples/watch-bookings.test.ts',
  // Real-time pacing by the rate-limit windows of every dialect.
  'test/transport/dialects.test.ts',
  // Other runtimes and compilers: the examples and the docs' snippets as child processes under tsx, the type tests on tsgo.
  'test/examples/standalone.test.ts',
  'test/docs/snippets.test.ts',
  'test/types/typescript-7.test.ts',
  // The largest property runs.
  'test/events/stream.property.test.ts',
  'test/events/service-time.property.test.ts',
  'test/redis-events/property.test.ts',
  'test/redis-events/faults.property.test.ts',
];

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
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW_TESTS],
          // Type tests (expectTypeOf, @ts-expect-error) run with the default set: tsc checks test/types/*.test-d.ts.
          typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW_TESTS } },
    ],
  },
});
