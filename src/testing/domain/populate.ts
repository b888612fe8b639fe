import { acceptCreator, addBooking, countInMonth, publishVideo } from './bookings.js';
import { DAY, HOUR } from '../simulation/clock.js';
import type { Account, BookingStatus } from '../model/model.js';
import { publishStep, resumeBooking } from '../simulation/simulation.js';
import { enroll } from './stores.js';
import { VisitSlots } from '../simulation/visit-slots.js';
import type { World } from '../model/world.js';

/** What `sandbox.populate()` creates. */
export interface PopulateOptions {
  /** Stores to enroll (active, hours found, in San Francisco). */
  locations: number;
  /** Bookings per store, with a mix of past and upcoming visits. @default 0 */
  reservationsPerLocation?: number;
  /** partner_location_id prefix; ids are `${prefix}000001`, ... @default 'pop-' */
  idPrefix?: string;
}

/** What `sandbox.populate()` made. */
export interface PopulateResult {
  /** The stores' partner_location_ids, in enrollment order. */
  locationIds: string[];
  /** How many bookings it made, over all the stores. */
  reservations: number;
}

/** Status mix of populated bookings (history plus open bookings). */
const MIX: Array<[BookingStatus, number]> = [
  ['completed', 0.55],
  ['no_show', 0.08],
  ['cancelled', 0.05],
  ['rejected', 0.05],
  ['confirmed', 0.17],
  ['pending', 0.1],
];

/**
 * Fill an account quickly for benchmarks: stores straight into state (no HTTP), and bookings
 * with visits in the past 4 weeks (completed or no-show, videos posted) or the next 10 days.
 * Open bookings keep moving as the clock advances.
 */
export function populate(world: World, account: Account, options: PopulateOptions): PopulateResult {
  const prefix = options.idPrefix ?? 'pop-';
  const perStore = options.reservationsPerLocation ?? 0;
  const now = world.clock.nowMs();
  const locationIds: string[] = [];
  let reservations = 0;
  for (let i = 1; i <= options.locations; i++) {
    const id = `${prefix}${String(i).padStart(6, '0')}`;
    const { store } = enroll(world, account, {
      partner_location_id: id,
      name: storeName(i),
      address: {
        line1: `${i} Market St`,
        city: 'San Francisco',
        state: 'CA',
        postal_code: `9410${(i % 9) + 1}`,
        country: 'US',
      },
    });
    locationIds.push(store.id);
    const rng = store.rng;
    const past = new VisitSlots(store, now, -28, -1);
    const upcoming = new VisitSlots(store, now, 2, 10);
    for (let j = 0; j < perStore; j++) {
      const status = drawStatus(rng.next());
      const history = status === 'completed' || status === 'no_show' || status === 'cancelled';
      const visitAt = status === 'pending' || status === 'rejected' ? null : (history ? past : upcoming).pick(rng);
      const createdAt = (visitAt ?? now) - rng.int(2 * 24, 10 * 24) * HOUR;
      const booking = addBooking(world, store, Math.min(createdAt, now), { status, visitAt }, now);
      reservations++;
      if (visitAt !== null && status !== 'cancelled') acceptCreator(world, booking, booking.createdAt + HOUR);
      if (status === 'no_show' && visitAt !== null) countInMonth(store, visitAt, 'noShows');
      if (status === 'completed' && visitAt !== null) {
        countInMonth(store, visitAt, 'completed');
        const postAt = visitAt + DAY + rng.next() * 4 * DAY;
        if (postAt <= now) publishVideo(world, booking, postAt, now);
        else world.clock.schedule(postAt, publishStep, booking);
      }
      resumeBooking(world, booking);
    }
  }
  return { locationIds, reservations };
}

/**
 * Store names are the partner's own text: the first begins with `+` (a phone prefix), which a
 * spreadsheet runs as a formula, so demo data carries what CSV for a person must defuse.
 */
function storeName(i: number): string {
  return i === 1 ? '+39 Trattoria' : `Populated Store ${i}`;
}

function drawStatus(x: number): BookingStatus {
  let acc = 0;
  for (const [status, share] of MIX) {
    acc += share;
    if (x < acc) return status;
  }
  return 'pending';
}
