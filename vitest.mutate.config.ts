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

/**
 * A test's time limit when the run is narrowed to tests on an injected clock (the slowest of the
 * events folder's mutation run takes 2 s). A mutant that loops then fails its test within this
 * (killed, the next mutant at once) instead of running into Stryker's timeout, which also restarts
 * the test process.
 */
const NARROWED_TEST_TIMEOUT_MS = 5_000;

/**
 * A test's own `{ timeout }` (up to a minute, for `npm test` under CI’s load) would outrank
 * `testTimeout`: in a narrowed run it is cut to NARROWED_TEST_TIMEOUT_MS. Only the options object
 * of `it(name, { timeout }, fn)` is read; nothing else in a test changes.
 */
const ownTimeouts = {
  name: 'narrowed-test-timeouts',
  enforce: 'pre' as const,
  transform(code: string, id: string) {
    if (!only?.length || !/\.test\.ts$/.test(id)) return null;
    const cut = code.replace(/\{\s*timeout: ([\d_]+),?\s*\},(\s*)async/g, (whole, ms: string, space: string) =>
      Number(ms.replaceAll('_', '')) > NARROWED_TEST_TIMEOUT_MS
        ? `{ timeout: ${NARROWED_TEST_TIMEOUT_MS} },${space}async`
        : whole,
    );
    return cut === code ? null : { code: cut, map: null };
  },
};

export default defineConfig({
  ...base,
  plugins: [...(base.plugins ?? []), ownTimeouts],
  test: {
    ...shared,
    // Type tests belong to `npm test`; per mutant they would only cost time.
    typecheck: { enabled: false },
    // MUTATE_ISOLATE=false: the test files share one module graph, loaded once per test process
    // instead of once per file and mutant (half the time or less). Sound where a test file leaves
    // no module state to the next: Stryker switches mutants at run time through a global, so a
    // module loaded once serves every mutant. The events folder's runs use it (stryker.config.mjs).
    ...(process.env.MUTATE_ISOLATE === 'false' ? { isolate: false } : {}),
    include: only?.length
      ? only
      : ['test/transport/**/*.test.ts', 'test/rate-limit/**/*.test.ts', 'test/sdk/**/*.test.ts'],
    // Narrowed to tests on an injected clock: a mutant that leaves a call waiting forever then fails
    // its test (killed) instead of running into Stryker's own timeout.
    ...(only?.length ? { testTimeout: NARROWED_TEST_TIMEOUT_MS } : {}),
    exclude: ['test/rate-limit/exit.test.ts', 'test/transport/shared-budget.test.ts', '**/node_modules/**'],
  },
});
