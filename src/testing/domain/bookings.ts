import { CHANGED_ACK, CHANGED_STATUS } from '../model/change-log.js';
import { DomainError } from '../model/domain-error.js';
import type { Account, AcknowledgedKind, Booking, BookingStatus, MonthCounts, Store } from '../model/model.js';
import { World } from '../model/world.js';

export function findBooking(account: Account, id: string): Booking {
  const seq = World.seqOf('res', id);
  const booking = seq === undefined ? undefined : bySeq(account.bookingList, seq);
  if (!booking || booking.id !== id) throw new DomainError({ kind: 'reservation_not_found', reservationId: id });
  return booking;
}

/** The record with this seq in a seq-ordered list. */
function bySeq<T extends { seq: number }>(list: readonly T[], seq: number): T | undefined {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = (list[mid] as T).seq;
    if (at === seq) return list[mid];
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Change a booking's status, keeping the store's counts and the change log in step. */
export function setStatus(world: World, booking: Booking, status: BookingStatus): void {
  if (booking.status === status) return;
  const counts = booking.store.counts;
  counts[booking.status]--;
  counts[status]++;
  booking.status = status;
  booking.store.account.changes.updated(booking, CHANGED_STATUS, world.clock.nowMs());
}

/** Record the merchant saw a booking; repeatable, the latest kind stands (a repeat of the same kind changes nothing). */
export function acknowledge(world: World, booking: Booking, kind: AcknowledgedKind): void {
  if (booking.acknowledgedKind === kind) return;
  if (booking.acknowledgedKind === null) booking.store.unacknowledged--;
  booking.acknowledgedKind = kind;
  booking.store.account.changes.updated(booking, CHANGED_ACK, world.clock.nowMs());
}

/** A new pending booking from a creator the operator invited. */
/**
 * A new booking. `logAt` is when the change log says it appeared (default `createdAt`): populate
 * backdates `created_at` but logs the booking at the simulated time it was made.
 */
export function addBooking(world: World, store: Store, createdAt: number, fields: Partial<Pick<Booking, 'status' | 'visitAt'>> = {}, logAt?: number): Booking {
  const booking: Booking = {
    seq: 0,
    id: '',
    store,
    status: fields.status ?? 'pending',
    visitAt: fields.visitAt ?? null,
    timeZone: store.timeZone,
    partySize: store.rng.int(1, 3),
    creator: world.creators.invite(store.rng, store.rules),
    acknowledgedKind: null,
    createdAt,
  };
  booking.seq = world.nextSeq();
  booking.id = world.newId('res', booking.seq);
  store.bookings.push(booking);
  store.account.bookingList.push(booking);
  store.counts[booking.status]++;
  store.unacknowledged++;
  store.account.changes.created(booking, logAt ?? createdAt);
  return booking;
}

/** Add to a store's counts for the UTC month of `at` (GET /billing/monthly). */
export function countInMonth(store: Store, at: number, what: keyof MonthCounts): void {
  const month = monthKey(at);
  let counts = store.monthly.get(month);
  if (!counts) {
    counts = { videos: 0, completed: 0, noShows: 0 };
    store.monthly.set(month, counts);
  }
  counts[what]++;
}

/** The creator joins the store's creator list the first time one of their bookings is confirmed. */
export function acceptCreator(world: World, booking: Booking, at: number): void {
  const store = booking.store;
  if (store.creatorIds.has(booking.creator.id)) return;
  store.creatorIds.add(booking.creator.id);
  store.creators.push({ seq: world.nextSeq(), creator: booking.creator, acceptedAt: at });
}

/** A creator's video, posted at `at` after a completed visit (logged at `logAt`, default `at`). */
export function publishVideo(world: World, booking: Booking, at: number, logAt = at): void {
  const platform = booking.store.rng.pick(booking.creator.platforms);
  const seq = world.nextSeq();
  const id = world.newId('vid', seq);
  const video = { seq, id, booking, platform, postedAt: at };
  booking.store.videos.push(video);
  countInMonth(booking.store, at, 'videos');
  booking.store.account.changes.published(video, logAt);
}

/** A UTC month as a number, 202612 for December 2026 (cheaper than a string in hot loops). */
export function monthKey(at: number): number {
  // Most calls fall in the month of the previous one (populate writes millions): no Date then.
  if (at >= lastMonth.start && at < lastMonth.end) return lastMonth.key;
  const d = new Date(at);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  lastMonth = { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1), key: year * 100 + month + 1 };
  return lastMonth.key;
}

let lastMonth = { start: 0, end: 0, key: 0 };
