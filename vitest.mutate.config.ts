/**
 * The suite as StrykerJS runs it (`npm run mutate`): the tests of the SDK's core, without those
 * that spawn child processes (mutants are active only inside the test worker, so a child process
 * always runs unmutated code and its tests could kill nothing) and without the sandbox's own
 * contract tests (they never load src/core).
 *
 * MUTATE_TESTS narrows the run to the tests that matter for the files mutated (comma-separated
 * globs), so that one file's run fits in minutes on 2 cores, e.g.
 *   MUTATE_TESTS='test/rate-limit/*.test.ts' npx stryker run --mutate src/core/rate-limit/headers.ts
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// One flat run, without the default and slow projects of `npm test`.
const { projects: _projects, ...shared } = base.test ?? {};
const only = process.env.MUTATE_TESTS?.split(',')
  .map((glob) => glob.trim())
  .filter(Boolean);

export default defineConfig({
  ...base,
  test: {
    ...shared,
    // Type tests belong to `npm test`; per mutant they would only cost time.
    typecheck: { enabled: false },
    include: only?.length
      ? only
      : ['test/transport/**/*.test.ts', 'test/rate-limit/**/*.test.ts', 'test/sdk/**/*.test.ts'],
    // Narrowed to tests on an injected clock: a mutant that leaves a call waiting forever then fails
    // its test (killed) instead of running into Stryker's own timeout.
    ...(only?.length ? { testTimeout: 5_000 } : {}),
    exclude: ['test/rate-limit/exit.test.ts', 'test/transport/shared-budget.test.ts', '**/node_modules/**'],
  },
});
