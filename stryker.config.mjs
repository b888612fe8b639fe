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
 *   MUTATE_TESTS='test/events/poll-paths.test.ts,test/events/pass-choice.test.ts' npx stryker run --concurrency 1 --mutate src/events/bookings.ts
 *   MUTATE_TESTS='test/events/video-state.test.ts,test/events/video-paths.test.ts' npx stryker run --concurrency 1 --timeoutMS 3000 --mutate src/events/videos.ts
 *   (95.34 % on 2026-11-27: 347 killed, 1 timeout, 12 survived, 5 no coverage, 4 min 51 s; the 17
 *   left are equivalent, each listed with its reason in the closing note of issue #34)
 *   MUTATE_TESTS='test/events/stores.test.ts,test/events/store-records.test.ts' npx stryker run --concurrency 1 --mutate src/events/stores.ts
 * (pass-cost.test.ts runs simulated days, and service-time*.test.ts simulated weeks: too long per
 * mutant; the few mutants only they kill are listed in the closing note of issue #34.)
 * And all of them in one run (the watcher-driven history-reset.test.ts and stores.test.ts left
 * out: store-paths, reconcile-paths and new-stores pin the same decisions at the finders, in seconds):
 *   MUTATE_TESTS='test/events/pacing.test.ts,test/events/pass-choice.test.ts,test/events/detector-summary.test.ts,test/events/poll-paths.test.ts,test/events/call-cost.test.ts,test/events/store-records.test.ts,test/events/watcher-waits.test.ts,test/events/watcher-states.test.ts,test/events/watcher-options.test.ts,test/events/watcher-restart.test.ts,test/events/watcher-stats.test.ts,test/events/watcher-lease.test.ts,test/events/options.test.ts,test/events/pass-end.test.ts,test/events/store-paths.test.ts,test/events/reconcile-paths.test.ts,test/events/new-stores.test.ts,test/events/video-state.test.ts,test/events/video-paths.test.ts' \
 *     npx stryker run --concurrency 2 --timeoutMS 3000 --mutate src/events/detector.ts,src/events/finder.ts,src/events/pacing.ts,src/events/watcher.ts,src/events/bookings.ts,src/events/videos.ts,src/events/stores.ts
 * (video-state and video-paths added after the measurement below.) Measured 2026-11-27 from 07:00 UTC on the 2-core machine (load 4 to 11, a fleet bench beside
 * it): 1,577 mutants (1,495 tested), dry run 18 s (106 tests, 8.7 s of them tests); 1,097 tested
 * in 63 minutes (54 survived, 156 timed out), so about 85 minutes for the whole run: it does NOT fit
 * in 30 minutes. The timeouts are a large part of it (about 20 of the 63 minutes, estimated at
 * Stryker's timeout plus a restart of the test process each): a mutant that loops (a walk that
 * never sees its last page, a wait of 0, a call without its signal) runs until Stryker's timeout. Vitest's `isolate: false` halves the time (pacing.ts and finder.ts, 29
 * mutants: 320 s isolated, 168 s not) but turned two timeouts into survivors, so it is not used.
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
