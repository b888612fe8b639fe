/**
 * Where a phase's memory went, garbage included: V8's sampling heap profiler, keeping the samples
 * of objects already collected (a heap snapshot shows only what is live, and RSS follows what was
 * allocated between collections). Written as a `.heapprofile` (Chrome DevTools' Memory tab, or
 * `node --import tsx bench/lib/alloc-summary.ts <file>`). Plain JavaScript: loaded by the bench's
 * own process and by the child on the build alike.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';

/** One sample per 256 KiB allocated on average: a 100,000-store run allocates some 100 GB. */
const SAMPLING_INTERVAL = 256 * 1024;

/** Start sampling; the returned function stops and writes the profile to `file`. */
export async function startAllocationProfile(file) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
    return file;
  };
}

/**
 * A heap snapshot the first time a major collection leaves more than `mb` MB live: what a phase
 * holds at its peak, which fixes how far V8 lets the heap grow next (a multiple of what is live).
 * Returns a function that stops watching.
 */
export function snapshotWhenLiveExceeds(mb, file) {
  let taken = false;
  const observer = new PerformanceObserver((list) => {
    if (taken) return;
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      const live = getHeapStatistics().used_heap_size / 1e6;
      if (live <= mb) continue;
      taken = true;
      console.error(`  heap snapshot with ${live.toFixed(1)} MB live: ${writeHeapSnapshot(file)}`);
      observer.disconnect();
      return;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
