import { monthOf, ZONE_REACH_MS } from './calendar.js';

/**
 * Billing's count of a store's videos in a month, remembered where the state's own counts cannot
 * tell whether a video is new: a store with a video near a month's first moment (billing counts it
 * in either month, depending on its time zone) and a month the state does not count. Without it
 * such a store was read at every scan (at 10,000 stores across a month end, 2.3 times the calls).
 *
 * A count is kept only once the store's content, read after billing, explains it: no fewer than
 * the videos in that month in every time zone, no more than those in it in some zone. While
 * billing then says the same, nothing was posted there since, and the store is not read again.
 * Kept for one run (a restart reads such stores once more) and forgotten on a history reset.
 */
export class BilledCounts {
  /** `store|month` → billing's count when the content last explained it. */
  readonly #counts = new Map<string, number>();

  /** Billing's count is the one the store's content explained last time. */
  unchanged(store: string, month: string, count: number): boolean {
    return this.#counts.get(`${store}|${month}`) === count;
  }

  /** After reading a store's content (the posting times of its videos): keep each count it explains, drop the others. */
  explained(store: string, counts: ReadonlyMap<string, number>, postedAt: readonly number[]): void {
    for (const [month, count] of counts) {
      const key = `${store}|${month}`;
      if (explains(month, count, postedAt)) this.#counts.set(key, count);
      else this.#counts.delete(key);
    }
  }

  /** Forget the months before `month` (they are never scanned again). */
  forgetBefore(month: string): void {
    for (const key of this.#counts.keys()) if (key.slice(-7) < month) this.#counts.delete(key);
  }

  clear(): void {
    this.#counts.clear();
  }
}

/** Whether `count` videos in `month` can be billing's count of videos posted at `postedAt`, in some time zone. */
function explains(month: string, count: number, postedAt: readonly number[]): boolean {
  let certain = 0;
  let possible = 0;
  for (const at of postedAt) {
    const earliest = monthOf(at - ZONE_REACH_MS) === month;
    const latest = monthOf(at + ZONE_REACH_MS) === month;
    if (earliest && latest) certain++;
    if (earliest || latest) possible++;
  }
  return certain <= count && count <= possible;
}
