/**
 * Bookings over simulated time. For each active store with known hours, bookings arrive as a
 * Poisson process at `visitsPerWeek`; each then moves on by itself as the clock passes:
 * pending → confirmed within a day (or rejected), confirmed → completed or no_show at the visit
 * (or cancelled before it), and a video 1-5 days after a completed visit.
 */
import { acceptCreator, addBooking, countInMonth, publishVideo, setStatus } from '../domain/bookings.js';
import { DAY, HOUR } from './clock.js';
import type { Booking, Store } from '../model/model.js';
import { pickVisitTime } from './visit-slots.js';
import type { World } from '../model/world.js';

/** Outcome rates, documented in docs/sandbox.md. */
export const RATES = {
  /** Share of pending bookings the creator or operator declines. */
  rejected: 0.08,
  /** Share of confirmed bookings called off before the visit. */
  cancelled: 0.05,
  /** Share of visits that happen (the rest are no-shows). */
  completed: 0.85,
} as const;

const WEEK = 7 * DAY;

export function isBookable(store: Store): boolean {
  return store.status === 'active' && store.hoursState === 'found';
}

/** Start the store's arrival process if it should run and is not running already. */
export function startArrivals(world: World, store: Store): void {
  const perWeek = world.options.visitsPerWeek;
  if (store.arrivalChain !== 0 || !isBookable(store) || perWeek <= 0) return;
  const chain = world.nextSeq();
  store.arrivalChain = chain;
  const next = (): void => {
    world.clock.schedule(world.clock.nowMs() + store.rng.exponential(WEEK / perWeek), () => {
      if (store.arrivalChain !== chain) return;
      if (!isBookable(store)) {
        // Paused, terminated or on hold: the chain stops; resuming starts a new one.
        store.arrivalChain = 0;
        return;
      }
      const booking = addBooking(world, store, world.clock.nowMs());
      world.clock.schedule(world.clock.nowMs() + store.rng.int(1, 23) * HOUR, decideStep, booking);
      next();
    });
  };
  next();
}

/** Scheduled steps of a booking: one function each, the booking as the event's subject. */
const decideStep = (booking: Booking): void => decide(booking.store.account.world, booking);
const visitStep = (booking: Booking): void => visit(booking.store.account.world, booking);
export const publishStep = (booking: Booking, at: number): void =>
  publishVideo(booking.store.account.world, booking, at);

function decide(world: World, booking: Booking): void {
  if (booking.status !== 'pending') return;
  const store = booking.store;
  const now = world.clock.nowMs();
  const visitAt = store.rng.chance(RATES.rejected) ? null : pickVisitTime(store, store.rng, now, 2, 10);
  if (visitAt === null) {
    setStatus(world, booking, 'rejected');
    return;
  }
  confirm(world, booking, visitAt, now);
}

/** Confirm a booking for `visitAt` and schedule what follows: maybe a cancellation, then the visit. */
export function confirm(world: World, booking: Booking, visitAt: number, now: number): void {
  const rng = booking.store.rng;
  booking.visitAt = visitAt;
  setStatus(world, booking, 'confirmed');
  acceptCreator(world, booking, now);
  if (rng.chance(RATES.cancelled)) {
    world.clock.schedule(now + rng.next() * (visitAt - now), () => {
      if (booking.status === 'confirmed') setStatus(world, booking, 'cancelled');
    });
  }
  world.clock.schedule(visitAt, visitStep, booking);
}

function visit(world: World, booking: Booking): void {
  if (booking.status !== 'confirmed' || booking.visitAt === null) return;
  const rng = booking.store.rng;
  if (rng.chance(RATES.completed)) {
    setStatus(world, booking, 'completed');
    countInMonth(booking.store, booking.visitAt, 'completed');
    const postAt = booking.visitAt + DAY + rng.next() * 4 * DAY;
    world.clock.schedule(postAt, publishStep, booking);
  } else {
    setStatus(world, booking, 'no_show');
    countInMonth(booking.store, booking.visitAt, 'noShows');
  }
}

/** A terminated store's open bookings are cancelled; its history stays. */
export function cancelOpenBookings(world: World, store: Store): void {
  for (const b of store.bookings) {
    if (b.status === 'pending' || b.status === 'confirmed') setStatus(world, b, 'cancelled');
  }
}

/** Schedule the next step of a booking created outside the arrival process (populate). */
export function resumeBooking(world: World, booking: Booking): void {
  if (booking.status === 'pending') {
    world.clock.schedule(world.clock.nowMs() + booking.store.rng.int(1, 23) * HOUR, decideStep, booking);
  } else if (booking.status === 'confirmed' && booking.visitAt !== null) {
    world.clock.schedule(booking.visitAt, visitStep, booking);
  }
}
