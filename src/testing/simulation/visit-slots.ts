import { WEEKDAYS } from '../model/store-fields.js';
import type { Store } from '../model/model.js';
import type { Rng } from '../model/random.js';
import { addDays, localDate, weekdayIndex, zonedToUtc, type CivilDate } from '../model/zoned-time.js';

const SLOT_MINUTES = 30;
/** A visit starts at least this long before closing (unless the opening is shorter). */
const VISIT_MINUTES = 60;

interface Day {
  date: CivilDate;
  /** Opening spans in minutes after local midnight (close may pass 24:00). */
  spans: Array<[open: number, close: number]>;
}

/**
 * Visit times for one store: inside its opening hours, on a half-hour slot, on a local date
 * between `minDays` and `maxDays` after the local date at `fromMs`. Each day's hours are worked
 * out once, so drawing many visits (populate) costs a table lookup each.
 */
export class VisitSlots {
  readonly #days: Day[] = [];

  constructor(
    private readonly store: Store,
    fromMs: number,
    private readonly minDays: number,
    maxDays: number,
  ) {
    const today = localDate(fromMs, store.timeZone);
    for (let offset = minDays; offset <= maxDays; offset++) {
      const date = addDays(today, offset);
      const spans = store.weekly?.[WEEKDAYS[weekdayIndex(date)] ?? 'mon'] ?? [];
      this.#days.push({ date, spans: spans.map((s) => [toMinutes(s.open), toMinutes(s.close)]) });
    }
  }

  /** A visit time, or null when the weekly hours have no opening on any of the days. */
  pick(rng: Rng): number | null {
    const tryDay = (day: Day): number | null => {
      if (day.spans.length === 0) return null;
      const [open, close] = rng.pick(day.spans);
      return slotIn(this.store.timeZone, day.date, open, close, rng);
    };
    for (let attempt = 0; attempt < 8; attempt++) {
      const found = tryDay(
        this.#days[rng.int(this.minDays, this.minDays + this.#days.length - 1) - this.minDays] as Day,
      );
      if (found !== null) return found;
    }
    for (const day of this.#days) {
      const found = tryDay(day);
      if (found !== null) return found;
    }
    return null;
  }
}

/** One visit time (see VisitSlots). */
export function pickVisitTime(store: Store, rng: Rng, fromMs: number, minDays: number, maxDays: number): number | null {
  return new VisitSlots(store, fromMs, minDays, maxDays).pick(rng);
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
