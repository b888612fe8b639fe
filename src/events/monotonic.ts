import type { Clock } from '../index.js';

/**
 * What the watcher measures intervals by: the clock's monotonic reading, which setting the
 * machine's clock (NTP, a VM restored from a snapshot) does not move, or `now()` for a clock
 * that has none (a test's simulated clock, which only moves forward anyway).
 */
export function monotonicOf(clock: Clock): () => number {
  const read = clock.monotonic;
  return read ? () => read.call(clock) : () => clock.now();
}
