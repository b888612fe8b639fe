/**
 * The phases of bench/sync-fleet.ts around `syncToPostgres` (first load, steady state, restart),
 * and the syncing process's memory. Plain JavaScript, so that the same code drives the sync in the
 * bench's own process (the sources, under tsx) and in a child of plain `node` on the build
 * (bench/workers/fleet-sync.mjs, `BENCH_SYNC_PROCESS=build`). Types: fleet-sync-phases.d.mts.
 */
import { writeHeapSnapshot } from 'node:v8';
import { snapshotWhenLiveExceeds, startAllocationProfile } from './alloc-profile.mjs';

/** `BENCH_SYNC_ALLOC_PROFILE=<prefix>`: each phase's allocations, to `<prefix>.<phase>.heapprofile`. */
const profilePrefix = process.env.BENCH_SYNC_ALLOC_PROFILE;
/**
 * `BENCH_SYNC_SNAPSHOT_LIVE_MB=<mb>` (with the prefix): a heap snapshot of the phase the first time a
 * major collection leaves more than that live, to `<prefix>.<phase>.heapsnapshot`.
 */
const snapshotLiveMb = Number(process.env.BENCH_SYNC_SNAPSHOT_LIVE_MB ?? Number.NaN);
/** Run `work` with the phase's allocations sampled when asked. */
async function profiled(phase, work) {
  const stop = profilePrefix ? await startAllocationProfile(`${profilePrefix}.${phase}.heapprofile`) : undefined;
  const stopWatching =
    profilePrefix && snapshotLiveMb > 0
      ? snapshotWhenLiveExceeds(snapshotLiveMb, `${profilePrefix}.${phase}.heapsnapshot`)
      : undefined;
  try {
    return await work();
  } finally {
    stopWatching?.();
    if (stop) console.error(`  allocation profile of the ${phase}: ${await stop()}`);
  }
}

/** The most heap this process used, sampled every 100 ms of real time (V8 has no peak counter). */
let peakHeap = 0;
const heapSampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 100);
heapSampler.unref();

/** This process's memory now, its peak RSS and its sampled peak heap; after a full GC if `gc`. */
export function processMemory(gc = false) {
  if (gc) globalThis.gc?.();
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    peakRss: process.resourceUsage().maxRSS * 1024,
    peakHeap,
  };
}

export function fleetSyncPhases({ syncToPostgres, client, clock, connectionString, budgetShare, maxLag }) {
  /** The sync past the first load, until `signal`. */
  const run = (signal, listeners) =>
    syncToPostgres(client, { connectionString, budgetShare, maxLag, signal, ...listeners });
  return {
    /** The first load (`once`), stopped after `wallS` real seconds; a heap snapshot at `snapshotAt` (default 95 %) of `needed` calls. */
    load: ({ wallS, snapshot, snapshotAt = 0.95, needed, onProgress }) =>
      profiled('load', async () => {
        const stop = new AbortController();
        const cap = setTimeout(() => stop.abort(), wallS * 1000);
        let pending = snapshot;
        try {
          const result = await syncToPostgres(client, {
            connectionString,
            once: true,
            budgetShare,
            signal: stop.signal,
            onProgress: (p) => {
              if (pending && p.calls >= snapshotAt * needed) {
                globalThis.gc?.();
                console.error(`  heap snapshot at ${p.calls} calls: ${writeHeapSnapshot(pending)}`);
                pending = undefined;
              }
              onProgress(p, processMemory());
            },
          });
          return { result, complete: !stop.signal.aborted };
        } finally {
          clearTimeout(cap);
        }
      }),

    /**
     * A restart, then the steady state up to simulated `end` (none if `hours` is 0) or `wallS` real
     * seconds. `startupMs`: from the call to the end of the first poll, when `onStart` is told.
     */
    steady: ({ end, hours, wallS, onStart, onProgress, onChange }) =>
      profiled('steady', async () => {
        const stop = new AbortController();
        const cap = setTimeout(() => stop.abort(), wallS * 1000);
        const restart = performance.now();
        let startupMs;
        try {
          await run(stop.signal, {
            onProgress: (progress) => {
              if (startupMs === undefined) {
                startupMs = performance.now() - restart;
                onStart();
              }
              if (hours <= 0 || clock.now() >= end) stop.abort();
              onProgress(processMemory(), progress);
            },
            onChange: (event) => {
              onChange(event);
              if (clock.now() >= end) stop.abort();
            },
          });
          return { startupMs };
        } finally {
          clearTimeout(cap);
        }
      }),

    /** A restart: ms to the end of its first pass, and the full reconciliations completed by then. */
    async restart() {
      const stop = new AbortController();
      const at = performance.now();
      let ms;
      let reconciliations = 0;
      await run(stop.signal, {
        onProgress: (progress) => {
          ms ??= performance.now() - at;
          reconciliations = progress.reconciliations;
          stop.abort();
        },
      });
      return { ms, reconciliations };
    },
  };
}
