/**
 * Billing months (UTC `YYYY-MM`) and how near a month's first moment an instant lies: a video
 * posted within a time zone's reach of it falls in that month or the one before, depending on the
 * time zone billing counts in, which the spec leaves open.
 */

import { withinMonths } from './month-bounds.js';

/** `YYYY-MM` of an instant, in UTC (the month billing counts use). */
export const monthOf = (ms: number): string => new Date(withinMonths(ms)).toISOString().slice(0, 7);

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  return monthOf(Date.UTC(y, m - 2, 15));
}

/** The month after `YYYY-MM`. */
export function nextMonth(month: string): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  return monthOf(Date.UTC(y, m, 15));
}

/** How far a store's clock can be from UTC (UTC+14 is the furthest ahead, UTC-12 the furthest behind). */
export const ZONE_REACH_MS = 14 * 3_600_000;

/**
 * The month whose first moment `ms` lies within a time zone's reach of, if any: a video posted then
 * falls in that month or the one before depending on the zone billing counts in.
 */
export function monthStartNear(ms: number): string | undefined {
  const month = monthOf(ms);
  const after = monthOf(ms + ZONE_REACH_MS);
  if (after !== month) return after;
  return monthOf(ms - ZONE_REACH_MS) === month ? undefined : month;
}

/** The months from `first` to `last`, both included, at most 120 (ten years). */
export function monthsFrom(first: string, last: string): string[] {
  const months = [last];
  while (months.length < 120 && (months[0] as string) > first) months.unshift(previousMonth(months[0] as string));
  return months;
}
