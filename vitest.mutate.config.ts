/**
 * The suite as StrykerJS runs it (`npm run mutate`): the tests of the SDK's core, without those
 * that spawn child processes (mutants are active only inside the test worker, so a child process
 * always runs unmutated code and its tests could kill nothing) and without the sandbox's own
 * contract tests (they never load src/core).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/transport/**/*.test.ts', 'test/rate-limit/**/*.test.ts', 'test/sdk/**/*.test.ts'],
    exclude: ['test/rate-limit/exit.test.ts', 'test/transport/shared-budget.test.ts', '**/node_modules/**'],
  },
});
