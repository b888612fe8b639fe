import { monthOf, ZONE_REACH_MS } from './calendar.js';

/**
 * Billing's count of a store's videos per month (`YYYY-MM` → count), kept in the store's video
 * record where the state's own counts cannot tell whether a video is new: a store with a video
 * near a month's first moment (billing counts it in either month, depending on its time zone) and
 * a month the state does not count. Without it such a store would be read at every scan (at 10,000
 * stores across a month end, 2.3 times the calls); held in memory only, it would be read again after
 * every restart near a month start (4,600 content reads at 10,000 stores): so it is in the record.
 *
 * A count is kept only once the store's content, read after billing, explains it: no fewer than
 * the videos in that month in every time zone, no more than those in it in some zone. While
 * billing then says the same, nothing was posted there since, and the store is not read again.
 */
export type BilledCounts = Readonly<Record<string, number>>;

/** Billing's count is the one the store's content explained last time. */
export function billedUnchanged(billed: BilledCounts | undefined, month: string, count: number): boolean {
  return billed !== undefined && Object.hasOwn(billed, month) && billed[month] === count;
}

/** After reading a store's content (the posting times of its videos): each count it explains kept, the others dropped. */
export function explainedCounts(
  billed: BilledCounts | undefined,
  counts: ReadonlyMap<string, number>,
  postedAt: readonly number[],
): BilledCounts {
  const next: Record<string, number> = { ...billed };
  for (const [month, count] of counts) {
    if (explains(month, count, postedAt)) next[month] = count;
    else delete next[month];
  }
  return next;
}

/** The counts of `month` and after (those before are never scanned again). */
export function billedFrom(billed: BilledCounts | undefined, month: string): BilledCounts | undefined {
  if (billed === undefined) return undefined;
  return Object.fromEntries(Object.entries(billed).filter(([m]) => m >= month));
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
