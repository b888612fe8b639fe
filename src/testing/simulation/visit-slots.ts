import { WEEKDAYS } from '../model/store-fields.js';
import type { Store } from '../model/model.js';
import type { Rng } from '../model/random.js';
import { addDays, localDate, weekdayIndex, zonedToUtc, type CivilDate } from '../model/zoned-time.js';

const SLOT_MINUTES = 30;
/** A visit starts at least this long before closing (unless the opening is shorter). */
const VISIT_MINUTES = 60;

/**
 * A visit time inside the store's opening hours, on a local date between `minDays` and
 * `maxDays` after the local date at `fromMs`, on a half-hour slot. Null when the store's
 * weekly hours have no opening at all on those days.
 */
export function pickVisitTime(store: Store, rng: Rng, fromMs: number, minDays: number, maxDays: number): number | null {
  const today = localDate(fromMs, store.timeZone);
  const tryDay = (offset: number): number | null => {
    const date = addDays(today, offset);
    const spans = store.weekly?.[WEEKDAYS[weekdayIndex(date)] ?? 'mon'] ?? [];
    if (spans.length === 0) return null;
    const span = rng.pick(spans);
    return slotIn(store.timeZone, date, toMinutes(span.open), toMinutes(span.close), rng);
  };
  for (let attempt = 0; attempt < 8; attempt++) {
    const found = tryDay(rng.int(minDays, maxDays));
    if (found !== null) return found;
  }
  for (let offset = minDays; offset <= maxDays; offset++) {
    const found = tryDay(offset);
    if (found !== null) return found;
  }
  return null;
}

function slotIn(timeZone: string, date: CivilDate, open: number, close: number, rng: Rng): number {
  // A span that closes at or before it opens runs past midnight (18:00-02:00).
  const end = close <= open ? close + 24 * 60 : close;
  const lastStart = Math.max(open, end - VISIT_MINUTES);
  const slots = Math.floor((lastStart - open) / SLOT_MINUTES) + 1;
  return zonedToUtc(timeZone, date, open + SLOT_MINUTES * rng.int(0, slots - 1));
}

function toMinutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}
