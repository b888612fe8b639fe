/**
 * The times and months the watcher can work with. Billing months are `YYYY-MM` on the wire: an
 * instant past 9999 would make a month the service refuses (`+010000`), and the loop would end on
 * it. So a service time outside these bounds is refused where it is read (`ServiceClock`), every
 * month is built from an instant clamped to them, and the months of billing read (by a first sync,
 * and by later passes whose estimate runs past every booking) stay within those of the account's bookings.
 */
import type { Reservation } from '../index.js';

/** The earliest service time the watcher takes: the service did not exist before. */
export const EARLIEST_SERVICE_TIME = Date.parse('2000-01-01T00:00:00Z');
/**
 * The latest service time the watcher takes: a month before the last month `YYYY-MM` can write,
 * so that the month after "now" (read near a month end) is still one.
 */
export const LATEST_SERVICE_TIME = Date.parse('9999-11-30T23:59:59.999Z');

const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether the service's time `at` (epoch ms) is one the watcher can work with. */
export function usableServiceTime(at: number): boolean {
  return at >= EARLIEST_SERVICE_TIME && at <= LATEST_SERVICE_TIME;
}

/** `ms` within the instants whose month is a four-digit `YYYY-MM`. */
export function withinMonths(ms: number): number {
  return Math.min(Math.max(ms, FIRST_INSTANT), LAST_INSTANT);
}

/** The months the account's bookings span (their creation and their visits), as a full pass lists them. */
export class BookingMonths {
  #last: string | undefined;
  /** The latest month a booking was created in: the service's true month is this one or later. */
  #lastCreated: string | undefined;

  note(booking: Pick<Reservation, 'created_at' | 'visit_at'>): void {
    for (const at of [booking.created_at, booking.visit_at]) {
      const month = typeof at === 'string' ? at.slice(0, 7) : '';
      if (!/^\d{4}-\d{2}$/.test(month)) continue;
      if (this.#last === undefined || month > this.#last) this.#last = month;
      if (at === booking.created_at && (this.#lastCreated === undefined || month > this.#lastCreated))
        this.#lastCreated = month;
    }
  }

  /**
   * The billing months a recent video can be in, when the service's time runs past every booking
   * (`months` in a month after the last one a booking reaches: answers agreeing on a time years
   * ahead): the latest month a booking was created in, the one before and the one after. Else `months`.
   */
  recentWithin(months: string[], previous: (m: string) => string, next: (m: string) => string): string[] {
    if (this.#last === undefined || this.#lastCreated === undefined || (months[0] as string) <= next(this.#last))
      return months;
    const created = this.#lastCreated;
    return [created, previous(created), next(created)];
  }

  /** The last month worth reading billing's history up to: `current`, unless no booking reaches it. */
  lastOf(current: string): string {
    return this.#last !== undefined && this.#last < current ? this.#last : current;
  }
}
