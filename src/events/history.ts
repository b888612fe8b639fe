/**
 * A service whose history went back under the checkpoint (a sandbox reset, a restored backup):
 * what the watcher remembers no longer describes it, and diffing against it would hide every
 * booking that happens to match a remembered one. Each sign is one the service cannot show while
 * its history only moves forward; the detector notes the first it sees, and the next poll forgets
 * the state (a `['r', at]` record) and syncs everything that exists again.
 */
import type { ServiceClock } from './service-clock.js';
import type { WatchState } from './state.js';

/**
 * How far the service's clock may step back (servers behind a balancer, a clock being set) before
 * its history is taken to have gone back with it.
 */
export const CLOCK_STEP_BACK_MS = 10 * 60_000;

/** Why the history was found to have gone back, as `watcher.stats.lastHistoryReset` says it. */
export const REWOUND = {
  clock: "the service's clock is before the latest time this checkpoint saw",
  list: "the service's booking list is shorter than the position this checkpoint saved",
  bookings: 'bookings this checkpoint remembers are gone from the service',
} as const;

/**
 * Whether the service's time is well before the latest the state saw; keeps the later of the two as
 * seen. Only a time the service confirmed counts (`ServiceClock.confirmed`: several answers agreed
 * on it), so one answer with a wrong `Date` neither resets the history nor raises the mark.
 *
 * `provisional`: the state's times were stamped while no answers agreed (`ServiceClock.seenAt()`
 * after a history reset, when every answer read may be hours off). The first confirmed time then
 * corrects them instead of being compared with them: a wrong answer stamped as seen would
 * otherwise pass for a second history gone back.
 */
export function clockWentBack(
  state: WatchState,
  service: Pick<ServiceClock, 'confirmed' | 'now'>,
  provisional = false,
): boolean {
  if (!service.confirmed) return false;
  const now = service.now();
  if (provisional) {
    state.seenAt = now;
    if (state.fullAt !== null && state.fullAt > now) state.fullAt = now;
    return false;
  }
  const latest = Math.max(state.seenAt ?? Number.NEGATIVE_INFINITY, state.fullAt ?? Number.NEGATIVE_INFINITY);
  state.seenAt = Math.max(latest, now);
  return now < latest - CLOCK_STEP_BACK_MS;
}
