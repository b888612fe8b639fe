// @ts-check
/**
 * Mutation testing of src/core (`npm run mutate`; not in CI: the whole of src/core takes hours on
 * 2 cores). Run it file by file for the central ones:
 *   npm run mutate -- --mutate src/core/retry-policy.ts
 * and narrow the tests run to those that matter (vitest.mutate.config.ts reads MUTATE_TESTS), e.g.
 *   MUTATE_TESTS='test/rate-limit/gate.test.ts,test/rate-limit/headers.test.ts,test/rate-limit/vectors.test.ts,test/transport/wait-rules.test.ts,test/transport/retries.test.ts,test/transport/hostile-answers.test.ts' \
 *     npx stryker run --timeoutMS 5000 --mutate src/core/rate-limit/gate.ts,src/core/rate-limit/headers.ts
 * The event stream and the bulk run, file by file with their unit tests, e.g.
 *   MUTATE_TESTS='test/events/intervals.test.ts,test/events/options.test.ts' npx stryker run --concurrency 1 --mutate src/events/intervals.ts
 * The event stream's scheduler, its loop and the finders, with the tests CI runs that pin them
 * (in seconds: an injected clock, the in-process sandbox), one file at a time while iterating
 * (--incremental keeps results, so a rerun tests only what a change touched):
 *   MUTATE_TESTS='test/events/pacing.test.ts' npx stryker run --concurrency 1 --mutate src/events/pacing.ts
 *   MUTATE_TESTS='test/events/pass-choice.test.ts,test/events/detector-summary.test.ts,test/events/history-reset.test.ts,test/events/poll-paths.test.ts,test/events/call-cost.test.ts,test/events/stores.test.ts' \
 *     npx stryker run --concurrency 1 --timeoutMS 4000 --mutate src/events/detector.ts
 *   MUTATE_TESTS='test/events/poll-paths.test.ts,test/events/pass-choice.test.ts,test/events/call-cost.test.ts,test/events/watcher-lease.test.ts' \
 *     npx stryker run --concurrency 1 --timeoutMS 4000 --mutate src/events/finder.ts
 *   MUTATE_TESTS='test/events/watcher-waits.test.ts,test/events/watcher-states.test.ts,test/events/watcher-options.test.ts,test/events/watcher-restart.test.ts,test/events/watcher-stats.test.ts,test/events/watcher-lease.test.ts,test/events/options.test.ts,test/events/pass-end.test.ts,test/events/history-reset.test.ts,test/events/checkpoint-identity.test.ts' \
 *     npx stryker run --concurrency 1 --timeoutMS 4000 --incremental --incrementalFile reports/incremental-watcher.json --mutate src/events/watcher.ts
 *   MUTATE_TESTS='test/events/poll-paths.test.ts,test/events/pass-choice.test.ts,test/events/state.test.ts' npx stryker run --concurrency 1 --mutate src/events/bookings.ts
 *   MUTATE_TESTS='test/events/video-state.test.ts,test/events/video-paths.test.ts,test/events/billed-counts.test.ts' \
 *     npx stryker run --concurrency 1 --timeoutMS 3000 --mutate src/events/videos.ts,src/events/billed-counts.ts
 *   (94.14 % on 2026-11-27: 449 killed, 1 timeout, 24 survived, 4 no coverage, 8 min 41 s, billed-counts.ts
 *   100 %; three of the survivors killed by tests written after it; the rest equivalent, each listed with
 *   its reason in the closing note of issue #34)
 *   MUTATE_TESTS='test/events/stores.test.ts,test/events/store-records.test.ts' npx stryker run --concurrency 1 --mutate src/events/stores.ts
 * (pass-cost.test.ts runs simulated days, and service-time*.test.ts simulated weeks: too long per
 * mutant; the few mutants only they kill are listed in the closing note of issue #34.)
 * The events folder in one run, with the tests CI runs that pin it (the watcher-driven
 * history-reset.test.ts and stores.test.ts left out: store-paths, reconcile-paths and new-stores
 * pin the same decisions at the finders, in seconds; state.test.ts for the booking table's code):
 *   MUTATE_ISOLATE=false MUTATE_TESTS='test/events/pacing.test.ts,test/events/pass-choice.test.ts,test/events/detector-summary.test.ts,test/events/poll-paths.test.ts,test/events/call-cost.test.ts,test/events/store-records.test.ts,test/events/watcher-waits.test.ts,test/events/watcher-states.test.ts,test/events/watcher-options.test.ts,test/events/watcher-restart.test.ts,test/events/watcher-stats.test.ts,test/events/watcher-lease.test.ts,test/events/options.test.ts,test/events/pass-end.test.ts,test/events/store-paths.test.ts,test/events/reconcile-paths.test.ts,test/events/new-stores.test.ts,test/events/video-state.test.ts,test/events/video-paths.test.ts,test/events/state.test.ts' \
 *     npx stryker run --concurrency 2 --timeoutMS 5000 --mutate src/events/detector.ts,src/events/finder.ts,src/events/pacing.ts,src/events/watcher.ts,src/events/bookings.ts,src/events/videos.ts,src/events/stores.ts
 * Measured 2026-11-27 at --concurrency 1 on the 2-core machine, a fleet bench beside it (load 3 to
 * 4), without state.test.ts: watcher.ts 340 mutants in 9 min 11 s (--timeoutMS 3000; 307 killed,
 * 12 timed out, 21 survived: 93.82 %); the six others 1,250 mutants (1,168 tested) in 28 min 44 s
 * (detector 91.11 %, finder 87.50 %, pacing 100 %, stores 97.48 %, videos 95.12 %, bookings
 * 72.54 % with 51 mutants of its table code not covered). With state.test.ts, bookings.ts alone:
 * 424 mutants in 10 min 28 s, 89.92 % (356 killed, 1 timed out, 39 survived, 1 not covered).
 * About 40 minutes at --concurrency 1. The command above as it stands (with state.test.ts), at
 * --concurrency 2 on the quiet 2-core machine (nothing else running), 2026-11-27 12:14 UTC:
 * **18 min 50 s**, 1,563 mutants, 93.73 % (1,456 killed, 9 timed out, 91 survived, 7 not covered):
 * bookings 90.27 %, detector 91.11 %, finder 87.50 %, pacing 100 %, stores 97.48 %, videos 95.71 %,
 * watcher 93.82 %; each survivor with its reason in the closing note of issue #34. What keeps it there:
 * - MUTATE_ISOLATE=false (vitest.mutate.config.ts): the test files share one module graph instead
 *   of loading it once per file and mutant. finder.ts and pacing.ts, 29 mutants: 152 s isolated,
 *   73 s shared, each mutant with the same status (the per-file runs above can use it too).
 * - A mutant that loops fails its test in 5 s instead of running into Stryker's timeout and a
 *   restart of the test process: in-process calls of test/events/support.ts answer on a later turn
 *   of the event loop (msw alone answers within one, so a pass after a pass of 0 ms held off the
 *   test's own timeout), and a test's own longer `{ timeout }` is cut to 5 s in a narrowed run.
 *   pacing.ts's 3 looping mutants (a wait of 0 or undefined) are killed, not timed out (the 29:
 *   173 s without this, 152 s with it). A mutant that makes a test slower than 5 s yet passing is
 *   killed as well, where Stryker's own timeout (14 s or more isolated) let it through: the slowest
 *   test of the list takes 2 s.
 * - --timeoutMS 5000: Stryker's timeout (1.5 × the covering tests' time + timeoutMS + overhead)
 *   stays above the tests' 5 s. At 3000 the watcher had 9 Stryker timeouts (a watcher that never
 *   delivers, e.g. 176 `state.resets !== 0`, which by hand fails its test in 5 s).
 * - Timeouts left are synchronous loops (finder 110 `for (;;) {}`, stores 224/229/253 a count that
 *   runs the wrong way, watcher 173/178/186): Stryker's hit limit ends them, without a restart.
 * Bail is on: Stryker's vitest runner runs with bail 1 (the first failing test ends the mutant's
 * run), in pool 'threads' with one worker whatever vitest's pool setting.
 * pagination.ts and api-promise.ts are left out here: each is mutated in a run of its own. The call path
 * (transport.ts, retry-policy.ts, operation.ts), with the tests that cover it:
 *   MUTATE_TESTS='test/transport/retry-policy.test.ts,test/transport/retries.test.ts,test/transport/write-safety.test.ts,test/transport/wait-rules.test.ts,test/transport/attempt-limits.test.ts,test/transport/call-reports.test.ts,test/transport/network-faults.test.ts,test/transport/rate-limited-wait.test.ts,test/transport/hostile-answers.test.ts,test/core/dot-segments.test.ts,test/core/fill-route.test.ts,test/core/real-clock.test.ts,test/core/refused-before-sending.test.ts,test/core/settle-repeat.test.ts,test/sdk/input-refusals.test.ts,test/sdk/errors.test.ts,test/sdk/refusal.test.ts,test/sdk/config.test.ts' \
 *     npx stryker run --mutate src/core/transport.ts,src/core/retry-policy.ts,src/core/operation.ts
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  // Module-level code (constants, schemas) reruns every related test per mutant; leave it out.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 15_000,
  mutate: [
    'src/core/**/*.ts',
    'src/redis/**/*.ts',
    '!src/core/pagination.ts',
    '!src/core/api-promise.ts',
    '!src/core/instrumentation.ts',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
